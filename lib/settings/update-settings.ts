import { z } from "zod";
import { db } from "../db/client";
import { appError } from "../errors";
import type { SiteSettings } from "../generated/prisma/client";
import type { Actor } from "../audit/actor";
import { writeAuditLog } from "../audit/write-audit-log";

// The settings an operator may change (CLI `settings:set`, admin console),
// by their snake_case names. The instance id is made once and never changes (D4).

const PositiveInt = z.coerce.number().int("must be a whole number").min(1, "must be at least 1").max(1_000_000, "must be at most 1000000");
const Bool = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")], { error: "must be true or false" });

const HttpUrl = z
  .string()
  .trim()
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === "http:" || u.protocol === "https:") && !u.username && !u.password && !u.search && !u.hash;
    } catch {
      return false;
    }
  }, "must be an http(s) URL without credentials, query or fragment")
  // Stored without a trailing slash: image URLs are built as base + "/uploads/…" (D15).
  .transform((s) => s.replace(/\/+$/, ""));

export const SettingsPatchSchema = z.strictObject({
  site_name: z.string().trim().min(1, "must not be empty").max(100).optional(),
  public_base_url: HttpUrl.optional(),
  image_exposure: Bool.optional(),
  points_debit_enabled: Bool.optional(),
  rate_limit_per_key: PositiveInt.optional(),
  rate_limit_per_ip: PositiveInt.optional(),
  language: z.enum(["zh-CN", "en"], { error: "must be zh-CN or en" }).optional(),
  // Issue 24.1: "off" = invitation only; "approval" = open sign-up, approved by an administrator.
  buyer_registration: z.enum(["off", "approval"], { error: "must be off or approval" }).optional(),
});
export type SettingsPatch = z.input<typeof SettingsPatchSchema>;
export const SETTING_KEYS = Object.keys(SettingsPatchSchema.shape) as (keyof SettingsPatch)[];

/** Validates the whole patch first (nothing is written when any value is bad), then updates the one row with its audit row. */
export async function updateSettings(patch: SettingsPatch, { actor }: { actor: Actor }) {
  const parsed = SettingsPatchSchema.safeParse(patch);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) =>
      i.code === "unrecognized_keys"
        ? `unknown setting ${i.keys.join(", ")} (known: ${SETTING_KEYS.join(", ")})`
        : `${i.path.join(".")}: ${i.message}`,
    );
    throw appError("bad_request", problems.join("; "));
  }
  const p = parsed.data;
  return db().$transaction(async (tx) => {
    const saved = await tx.siteSettings.update({
      where: { id: 1 },
      data: {
        siteName: p.site_name,
        publicBaseUrl: p.public_base_url,
        imageExposure: p.image_exposure,
        pointsDebitEnabled: p.points_debit_enabled,
        rateLimitPerKey: p.rate_limit_per_key,
        rateLimitPerIp: p.rate_limit_per_ip,
        language: p.language,
        buyerRegistration: p.buyer_registration,
      },
    });
    await writeAuditLog(tx, { actor, action: "settings.update", targetType: "settings", targetId: "1", details: settingsView(saved) });
    return saved;
  });
}

/** The settings row in the snake_case shape the CLI prints. */
export function settingsView(s: SiteSettings) {
  return {
    site_name: s.siteName,
    public_base_url: s.publicBaseUrl,
    image_exposure: s.imageExposure,
    points_debit_enabled: s.pointsDebitEnabled,
    rate_limit_per_key: s.rateLimitPerKey,
    rate_limit_per_ip: s.rateLimitPerIp,
    language: s.language,
    buyer_registration: s.buyerRegistration,
  };
}
