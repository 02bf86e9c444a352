import RE2 from "re2";
import type { FormField, ManualFormSchema } from "./form-schema";
import { matchesFormPattern, MAX_FORM_VALUE_LENGTH } from "./form-pattern";
import { appError } from "../errors";

export type FormValue = string | number | string[];
export type NormalizedForm = Record<string, FormValue>;

// RE2 as well (issue 8.6): in V8 the e-mail pattern alone is quadratic (5,000
// characters: 350 ms), and these run on the buyer's values.
const EMAIL_RE = new RE2(/^[^\s@]+@[^\s@]+\.[^\s@]+$/u);
const PHONE_RE = new RE2(/^\+?[0-9][0-9 ()-]{3,31}$/u);
const NUMERIC_RE = new RE2(/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/u);

/** Escapes the five HTML-significant characters, for storage and later display (spec 4.5 rule 4). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${({ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "#39" } as const)[c as "&"]};`);
}

/**
 * Validates manual_form_data against a product's form schema and returns the
 * normalised form (D33): each value is trimmed, validated on the trimmed value
 * (required, unknown fields, types, lengths, regex, options, ranges), then
 * HTML-escaped for storage. An empty string after trimming counts as absent.
 * Numbers may arrive as JSON numbers or numeric strings and are stored as
 * numbers. Checkbox values are trimmed, de-duplicated and sorted before their
 * options are checked. Errors name the field, never its value (D1, D17).
 */
export function normalizeManualForm(schema: ManualFormSchema, data: Record<string, unknown> | undefined): NormalizedForm {
  const input = data ?? {};
  const byKey = new Map(schema.fields.map((f) => [f.key, f]));
  for (const key of Object.keys(input)) {
    if (!byKey.has(key)) {
      // The key is the client's; name it only when it looks like a field key.
      const name = /^[a-z0-9_]{1,64}$/.test(key) ? `manual_form_data.${key}` : "manual_form_data";
      throw appError("bad_request", `${name}: unknown field`);
    }
  }
  const out: NormalizedForm = {};
  for (const field of schema.fields) {
    const value = normalizeField(field, input[field.key]);
    if (value === undefined) {
      if (field.required) throw appError("bad_request", `manual_form_data.${field.key}: is required`);
      continue;
    }
    out[field.key] = value;
  }
  return out;
}

function normalizeField(field: FormField, raw: unknown): FormValue | undefined {
  const name = `manual_form_data.${field.key}`;
  if (raw === undefined || raw === null) return undefined;
  // Before any other check: no value the product could want is this long, and nothing below sees more.
  if (typeof raw === "string" && raw.length > MAX_FORM_VALUE_LENGTH)
    throw appError("bad_request", `${name}: must be at most ${MAX_FORM_VALUE_LENGTH} characters`);
  switch (field.type) {
    case "number":
      return normalizeNumber(field, raw, name);
    case "checkbox":
      return normalizeCheckbox(field, raw, name);
    default: {
      if (typeof raw !== "string") throw appError("bad_request", `${name}: must be a string`);
      const text = raw.trim();
      if (text === "") return undefined;
      checkText(field, text, name);
      return escapeHtml(text);
    }
  }
}

function checkText(field: FormField, text: string, name: string) {
  const length = [...text].length; // characters, not UTF-16 units
  if (field.min_len !== undefined && length < field.min_len)
    throw appError("bad_request", `${name}: must be at least ${field.min_len} characters`);
  if (field.max_len !== undefined && length > field.max_len)
    throw appError("bad_request", `${name}: must be at most ${field.max_len} characters`);
  if (field.type === "email" && !EMAIL_RE.test(text)) throw appError("bad_request", `${name}: must be an e-mail address`);
  if (field.type === "phone" && !PHONE_RE.test(text)) throw appError("bad_request", `${name}: must be a phone number`);
  if ((field.type === "select" || field.type === "radio") && !field.options?.includes(text)) {
    throw appError("bad_request", `${name}: is not one of the allowed options`);
  }
  // Lengths first: the pattern only ever sees bounded input.
  if (field.regex !== undefined && !matchesFormPattern(field.regex, text))
    throw appError("bad_request", `${name}: does not match the required format`);
}

function normalizeNumber(field: FormField, raw: unknown, name: string): number | undefined {
  let n: number;
  if (typeof raw === "number") n = raw;
  else if (typeof raw === "string") {
    const text = raw.trim();
    if (text === "") return undefined;
    if (!NUMERIC_RE.test(text)) throw appError("bad_request", `${name}: must be a number`);
    n = Number(text);
  } else throw appError("bad_request", `${name}: must be a number`);
  if (!Number.isFinite(n)) throw appError("bad_request", `${name}: must be a number`);
  if (field.min !== undefined && n < field.min) throw appError("bad_request", `${name}: must be at least ${field.min}`);
  if (field.max !== undefined && n > field.max) throw appError("bad_request", `${name}: must be at most ${field.max}`);
  return n;
}

function normalizeCheckbox(field: FormField, raw: unknown, name: string): string[] | undefined {
  if (!Array.isArray(raw) || raw.some((v) => typeof v !== "string")) throw appError("bad_request", `${name}: must be an array of strings`);
  const values = [...new Set((raw as string[]).map((v) => v.trim()).filter((v) => v !== ""))].sort();
  if (values.length === 0) return undefined;
  for (const v of values)
    if (!field.options?.includes(v)) throw appError("bad_request", `${name}: contains a value that is not an allowed option`);
  return values.map(escapeHtml);
}

/**
 * The stored form of a Profile P order (spec 4.5 form rules 1-3): `auto`
 * products, and `upstream` products without a form, keep an empty object
 * whatever was sent; `manual` products, and `upstream` products with a form,
 * are validated and normalised against the product's schema.
 */
export function formForProduct(
  fulfillmentType: "auto" | "manual" | "upstream",
  schema: ManualFormSchema,
  data: Record<string, unknown> | undefined,
): NormalizedForm {
  if (fulfillmentType === "auto") return {};
  if (fulfillmentType === "upstream" && schema.fields.length === 0) return {};
  return normalizeManualForm(schema, data);
}
