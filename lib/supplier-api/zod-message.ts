import type { z } from "zod";

/**
 * D17: a 400 message that names the field and what is wrong, never the value.
 * zod's own messages describe expectations ("expected number, received
 * string", "<=128 characters"), not the input; unknown keys are field names.
 * Only the first few issues are listed.
 */
export function zodMessage(error: z.ZodError): string {
  const parts = error.issues.slice(0, 3).map((issue) => {
    if (issue.code === "unrecognized_keys") {
      return `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => JSON.stringify(k.slice(0, 64))).join(", ")}`;
    }
    const field = issue.path.length ? issue.path.map(String).join(".") : "body";
    if (issue.code === "invalid_type" && issue.input === undefined) return `field "${field}" is required`;
    return `field "${field}": ${issue.message}`;
  });
  return parts.join("; ");
}
