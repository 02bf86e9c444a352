// Issue 34.5: the console pages under /…/[id] read their id one way. An id
// that is not an int4 (letters, 0, or past 2^31 − 1) finds nothing, so the
// page answers 404 instead of a database error (lib/protocol/ids.ts).
import { isInt4IdText } from "../protocol/ids";
import type { SearchParams } from "./paging";

/** The props of a console page under /…/[id] that also reads its query string. */
export interface IdPageProps {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}

/** The URL's [id] as a record id, or null when it cannot be one. */
export async function routeId(params: Promise<{ id: string }>): Promise<number | null> {
  const { id } = await params;
  return isInt4IdText(id) ? Number(id) : null;
}
