// Issue 24.3: every portal route in ONE list. The isolation test
// (portal-isolation.test.ts) signs in as buyer A and requests each route
// with buyer B's ids; a structure check makes sure no route file under
// app/portal is missing from here.

export type PortalRoute = {
  /** The Next route path, with [param] segments. */
  path: string;
  method: "GET" | "POST";
  /** page / export: what a browser opens; action: a JSON POST; public: reachable signed out. */
  kind: "page" | "export" | "action" | "public";
};

export const PORTAL_ROUTES: readonly PortalRoute[] = [
  // Signed out.
  { path: "/portal/sign-in", method: "GET", kind: "public" },
  { path: "/portal/session", method: "POST", kind: "public" },
  { path: "/portal/sign-out", method: "POST", kind: "public" },
  { path: "/portal/link/[token]", method: "GET", kind: "public" },
  { path: "/portal/set-password", method: "POST", kind: "public" },
  { path: "/portal/forgot", method: "GET", kind: "public" },
  { path: "/portal/forgot/send", method: "POST", kind: "public" },
  { path: "/portal/register", method: "GET", kind: "public" },
  { path: "/portal/register/send", method: "POST", kind: "public" },
  { path: "/portal/locale", method: "GET", kind: "public" },
  // Signed in: pages.
  { path: "/portal", method: "GET", kind: "page" },
  { path: "/portal/prices", method: "GET", kind: "page" },
  { path: "/portal/orders", method: "GET", kind: "page" },
  { path: "/portal/orders/[orderNo]", method: "GET", kind: "page" },
  { path: "/portal/statement", method: "GET", kind: "page" },
  { path: "/portal/keys", method: "GET", kind: "page" },
  { path: "/portal/top-ups", method: "GET", kind: "page" },
  { path: "/portal/top-ups/[paymentNo]", method: "GET", kind: "page" },
  { path: "/portal/integration", method: "GET", kind: "page" },
  { path: "/portal/account", method: "GET", kind: "page" },
  // Signed in: exports.
  { path: "/portal/prices.csv", method: "GET", kind: "export" },
  { path: "/portal/orders.csv", method: "GET", kind: "export" },
  { path: "/portal/orders.csv", method: "POST", kind: "export" },
  { path: "/portal/statement.csv", method: "GET", kind: "export" },
  // Signed in: actions.
  { path: "/portal/api/keys", method: "POST", kind: "action" },
  { path: "/portal/api/keys/[apiKey]/rotate", method: "POST", kind: "action" },
  { path: "/portal/api/keys/[apiKey]/disable", method: "POST", kind: "action" },
  { path: "/portal/api/catalog-events/[eventId]/resend", method: "POST", kind: "action" },
  { path: "/portal/api/orders/[orderNo]/reveal", method: "POST", kind: "action" },
  { path: "/portal/api/top-ups", method: "POST", kind: "action" },
  { path: "/portal/api/payments", method: "POST", kind: "action" },
  { path: "/portal/api/payments/[paymentNo]", method: "GET", kind: "export" },
  { path: "/portal/api/sessions/[sessionId]/end", method: "POST", kind: "action" },
  { path: "/portal/api/two-factor/begin", method: "POST", kind: "action" },
  { path: "/portal/api/two-factor/enable", method: "POST", kind: "action" },
  { path: "/portal/api/two-factor/disable", method: "POST", kind: "action" },
  { path: "/portal/api/password", method: "POST", kind: "action" },
];

/** The signed-in navigation, in order (labels are i18n keys). */
export const PORTAL_NAV = [
  { href: "/portal", label: "portal.nav.overview" },
  { href: "/portal/orders", label: "portal.nav.orders" },
  { href: "/portal/prices", label: "portal.nav.prices" },
  { href: "/portal/statement", label: "portal.nav.statement" },
  { href: "/portal/top-ups", label: "portal.nav.topUps" },
  { href: "/portal/keys", label: "portal.nav.keys" },
  { href: "/portal/integration", label: "portal.nav.integration" },
  { href: "/portal/account", label: "portal.nav.account" },
] as const;
