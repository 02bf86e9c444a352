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
    if (issue.code === "invalid_type") return `field "${field}"${wrongType(issue)}`;
    return `field "${field}": ${issue.message}`;
  });
  return parts.join("; ");
}

/**
 * Issue 35.5: a missing field, a field of the wrong type and a number that is
 * not whole are three mistakes; zod 4 reports all three as invalid_type (with
 * the schema's one message), told apart only by the input, which it keeps on
 * the issue when parsed with `reportInput` (validate-input.ts). The input's
 * kind is named ("a string"), never the input.
 */
function wrongType(issue: z.core.$ZodIssueInvalidType): string {
  if (!("input" in issue)) return `: ${issue.message}`; // parsed without reportInput: nothing to tell apart
  const input = issue.input;
  if (input === undefined) return " is required";
  if (issue.expected === "int" && typeof input === "number") return ": must be a whole number";
  if (issue.expected === "number" && typeof input === "number") return ": must be a finite number"; // Infinity from 1e400
  return `: must be ${EXPECTED[issue.expected] ?? issue.expected}, not ${kindOf(input)}`;
}

const EXPECTED: Record<string, string> = {
  number: "a number",
  int: "a whole number",
  string: "a string",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  record: "an object",
};

function kindOf(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "an array";
  const t = typeof input;
  return t === "object" ? "an object" : `a ${t}`;
}
