/** What an upstream catalogue import did, per kind of row (import-upstream-catalog.ts). */
export interface UpstreamImportCounts {
  categoriesCreated: number;
  categoriesUpdated: number;
  categoriesDelisted: number;
  productsCreated: number;
  productsUpdated: number;
  productsDelisted: number;
  skusCreated: number;
  skusUpdated: number;
  skusDelisted: number;
}

export function noUpstreamImportCounts(): UpstreamImportCounts {
  return {
    categoriesCreated: 0,
    categoriesUpdated: 0,
    categoriesDelisted: 0,
    productsCreated: 0,
    productsUpdated: 0,
    productsDelisted: 0,
    skusCreated: 0,
    skusUpdated: 0,
    skusDelisted: 0,
  };
}
