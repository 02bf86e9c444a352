// Turns a service's zod verdict into one 400 naming the fields. Below every service (the catalogue, the member levels), so none imports another for it (issue 34.1).
import type { z } from "zod";
import { appError } from "../errors";

/** Validates a service's input; bad input becomes a 400 naming the fields (and nothing is written). */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw appError("bad_request", parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`).join("; "));
  return parsed.data;
}

/** ["products", 1, "skus", 0, "price_amount"] → "products[1].skus[0].price_amount". */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || "(file)";
}
