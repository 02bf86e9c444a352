// The two profiles and their four prefixes (section 9).

export type Profile = "U" | "P";

/** The dynamic path segment after /v1/ that selects a profile. */
export const PROFILE_SEGMENTS = { upstream: "U", provider: "P" } as const satisfies Record<string, Profile>;
export type ProfileSegment = keyof typeof PROFILE_SEGMENTS;

export function profileFromSegment(segment: string): Profile | undefined {
  return Object.hasOwn(PROFILE_SEGMENTS, segment) ? PROFILE_SEGMENTS[segment as ProfileSegment] : undefined;
}

/** Primary and alternate prefix of each profile. */
export const PROFILE_PREFIXES: Record<Profile, readonly [primary: string, alternate: string]> = {
  U: ["/api/v1/upstream", "/v1/upstream"],
  P: ["/api/v1/provider", "/v1/provider"],
};

export const ALL_PREFIXES: readonly { profile: Profile; prefix: string }[] = (["U", "P"] as const).flatMap((profile) =>
  PROFILE_PREFIXES[profile].map((prefix) => ({ profile, prefix })),
);

/**
 * The protocol a request speaks: ours (the two profiles), or Dujiao-Next's docking protocol, which
 * Profile U was derived from and which /api/v1/upstream also serves when a request carries its
 * headers (issue 37.1, decision 0090). The values are the database's (Order.wireDialect).
 */
export type WireDialect = "svc" | "dujiao_next";
