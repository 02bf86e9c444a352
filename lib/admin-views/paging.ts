// Server-side paging and sorting for the admin tables: the URL carries
// ?page=1&size=20&sort=createdAt&dir=desc; anything unexpected falls back to
// the defaults rather than erroring (the URL is user-editable).

export type SearchParams = Record<string, string | string[] | undefined>;

export interface Paging<S extends string> {
  page: number;
  pageSize: number;
  skip: number;
  take: number;
  sort: S;
  dir: "asc" | "desc";
}

export const PAGE_SIZES = [10, 20, 50, 100] as const;

export function one(params: SearchParams, key: string): string | undefined {
  const v = params[key];
  return Array.isArray(v) ? v[0] : v;
}

export function parsePaging<S extends string>(
  params: SearchParams,
  sorts: readonly S[],
  defaultSort: S,
  defaultDir: "asc" | "desc" = "desc",
): Paging<S> {
  const page = Math.max(1, Math.min(100_000, Number.parseInt(one(params, "page") ?? "1", 10) || 1));
  const sizeRaw = Number.parseInt(one(params, "size") ?? "20", 10);
  const pageSize = (PAGE_SIZES as readonly number[]).includes(sizeRaw) ? sizeRaw : 20;
  const sortRaw = one(params, "sort");
  const sort = sorts.includes(sortRaw as S) ? (sortRaw as S) : defaultSort;
  const dirRaw = one(params, "dir");
  const dir = dirRaw === "asc" || dirRaw === "desc" ? dirRaw : defaultDir;
  return { page, pageSize, skip: (page - 1) * pageSize, take: pageSize, sort, dir };
}
