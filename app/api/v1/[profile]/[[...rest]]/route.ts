import { supplierRouter } from "@/lib/supplier-api/router";

// The supplier API under Next (`next start`, development): every path under
// the four prefixes (/v1/… reaches here by next.config.mjs's rewrite) and
// every method goes to the one router, which answers from the endpoint table
// (decision 0036). `npm start` serves the same router without Next.
export const dynamic = "force-dynamic";
const { serveWeb } = supplierRouter();
export { serveWeb as GET, serveWeb as HEAD, serveWeb as POST, serveWeb as PUT, serveWeb as PATCH, serveWeb as DELETE, serveWeb as OPTIONS };
