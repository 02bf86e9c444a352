import type { z } from "zod";
import type { MessageKey, Translate } from "../i18n/messages";

/** One field's problem: the field's name (the form shows its label and highlights it) and a sentence. */
export type FormIssue = { field: string; message: string };

// The rules' own sentences (schemas keep them in English for the CLI and the
// API); the console shows each in its page's language (issue 35.2).
const KNOWN: Record<string, MessageKey> = {
  "the two new passwords differ": "form.passwordsDiffer",
  "a rejection needs a reason": "form.rejectionNeedsReason",
  "give either lines or an amount": "form.linesOrAmount",
  "must not be zero": "form.notZero",
  "must be an http or https URL": "form.httpUrl",
  "must be an http(s) URL without credentials, query or fragment": "form.plainHttpUrl",
  "is required": "form.required",
};

/**
 * A zod failure as one sentence per field, in the page's language: the
 * message names no internal field (the form puts the field's label before it)
 * and repeats no typed value.
 */
export function formIssues(error: z.ZodError, t: Translate): FormIssue[] {
  const seen = new Set<string>();
  const out: FormIssue[] = [];
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "");
    if (seen.has(field)) continue; // one sentence per field is enough to fix it
    seen.add(field);
    out.push({ field, message: sentence(issue, t) });
  }
  return out;
}

function sentence(issue: z.core.$ZodIssue, t: Translate): string {
  const known = KNOWN[issue.message];
  if (known) return t(known);
  // Issue 38: the tier rules name the offending tier; the console says the rule (lib/prices/price-input.ts).
  if (issue.message.startsWith("must list quantities in ascending order")) return t("form.tiersOrder");
  if (/^must have at most \d+ tiers/.test(issue.message)) return t("form.tiersTooMany");
  if (issue.message.includes("must be QUANTITY:PRICE")) return t("form.tiersFormat");
  if (/amount/.test(issue.message)) return t("form.amount");
  switch (issue.code) {
    case "too_small":
      if (issue.origin === "string")
        return Number(issue.minimum) <= 1 ? t("form.required") : t("form.tooShort", { n: String(issue.minimum) });
      return t("form.tooSmall", { n: String(issue.minimum) });
    case "too_big":
      return issue.origin === "string" ? t("form.tooLong", { n: String(issue.maximum) }) : t("form.tooBig", { n: String(issue.maximum) });
    case "invalid_type":
      return issue.expected === "number" || issue.expected === "int" ? t("form.notANumber") : t("form.required");
    case "invalid_format":
      return t("form.badFormat");
    case "invalid_value":
    case "invalid_union":
      return t("form.badChoice");
    default:
      return t("form.invalid");
  }
}
