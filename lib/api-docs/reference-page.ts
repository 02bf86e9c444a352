import fs from "node:fs/promises";
import path from "node:path";

// The API reference page (issue 11.2): Swagger UI from the swagger-ui-dist
// npm package, served from our own origin. Nothing is loaded from any other
// host: the assets come from node_modules through /docs/assets/, the
// document from /api/docs/openapi.json, validatorUrl is off (Swagger UI would
// otherwise send the document to validator.swagger.io), and the page's CSP
// allows 'self' only. Swagger UI uses no web fonts (system font stacks).

const ASSETS: Record<string, { file?: string; type: string }> = {
  "swagger-ui-bundle.js": { file: "swagger-ui-bundle.js", type: "text/javascript; charset=utf-8" },
  "swagger-ui.css": { file: "swagger-ui.css", type: "text/css; charset=utf-8" },
  "init.js": { type: "text/javascript; charset=utf-8" },
};

export const REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // Swagger UI sets style attributes from script.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Links from the page header to the guide sections inside the rendered description. */
export const GUIDE_LINKS = [
  ["signing", "Signing"],
  ["idempotency", "Idempotency"],
  ["polling-profile-p", "Polling"],
  ["callbacks-profile-u", "Callbacks"],
] as const;

const INIT_JS = `"use strict";
// Headings of the guide get ids, so the links in the header reach them.
function slug(t) { return t.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, ""); }
window.ui = SwaggerUIBundle({
  url: "/api/docs/openapi.json",
  dom_id: "#swagger-ui",
  validatorUrl: null,
  deepLinking: false,
  docExpansion: "list",
  defaultModelsExpandDepth: 0,
  onComplete: function () {
    document.querySelectorAll("#swagger-ui .info h2").forEach(function (h) { h.id = slug(h.textContent || ""); });
    document.body.setAttribute("data-reference-ready", "true");
  },
});
`;

export function referenceHtml(): string {
  const links = GUIDE_LINKS.map(([id, label]) => `<a href="#${id}">${label}</a>`).join(" · ");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Supplier API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<nav id="guide-links" style="padding:8px 20px;font-family:sans-serif;border-bottom:1px solid #ddd">
Guide: ${links} · <a href="/api/docs/openapi.json">OpenAPI document</a>
</nav>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;
}

const dist = () => path.join(/*turbopackIgnore: true*/ process.cwd(), "node_modules", "swagger-ui-dist");

/** One whitelisted asset, or undefined. */
export async function referenceAsset(name: string): Promise<{ body: string | Buffer; type: string } | undefined> {
  const a = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  if (!a) return undefined;
  if (!a.file) return { body: INIT_JS, type: a.type };
  return { body: await fs.readFile(path.join(dist(), a.file)), type: a.type };
}
