import { Prisma } from "../generated/prisma/client";

// D11 (issue 8.7): ONE rule for whether a product exists for a downstream.
// A product is listed when neither it nor its category is deleted (a
// category an upstream re-import no longer lists is hidden this way). The
// catalogue lists exactly these (detail of anything else: 404), and an order
// is accepted only for these (lib/orders/order-context.ts): visible and
// orderable, or neither. Whether a listed product sells is then is_active
// (D32), which the catalogue reports rather than hides. Every reader (the
// catalogue, the order context, catalogue events) uses this one fragment, so
// the rule cannot drift apart.

/** For raw SQL over "Product" AS p LEFT JOIN "Category" AS c ON c."id" = p."categoryId". */
export const LISTED_PRODUCT_SQL = Prisma.sql`(p."deletedAt" IS NULL AND c."id" IS NOT NULL AND c."deletedAt" IS NULL)`;
