import type { z } from "zod";
import { appError } from "../errors";
import { formatPath } from "./catalog-file-schema";

/** Validates a service's input; bad input becomes a 400 naming the fields (and nothing is written). */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw appError("bad_request", parsed.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`).join("; "));
  return parsed.data;
}
