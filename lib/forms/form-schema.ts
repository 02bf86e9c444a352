import { z } from "zod";
import { LanguageTextSchema } from "../protocol/language";
import { checkFormPattern, MAX_PATTERN_LENGTH } from "./form-pattern";

// A product's manual_form_schema (spec 4.5, Profile P): `{fields: [...]}`.
// Shared by order creation (validation of manual_form_data) and the catalogue
// import/admin (validation of what an administrator enters).

export const FORM_FIELD_TYPES = ["text", "textarea", "phone", "email", "number", "select", "radio", "checkbox"] as const;
export type FormFieldType = (typeof FORM_FIELD_TYPES)[number];

const OPTION_TYPES: readonly FormFieldType[] = ["select", "radio", "checkbox"];
const EMPTY_TEXT = { "zh-CN": "", en: "" };

const count = z.number().int().min(0).max(1_000_000);

export const FormFieldSchema = z
  .object({
    key: z.string().regex(/^[a-z0-9_]{1,64}$/, "key must match ^[a-z0-9_]{1,64}$"),
    type: z.enum(FORM_FIELD_TYPES),
    label: LanguageTextSchema.optional().transform((v) => v ?? EMPTY_TEXT),
    placeholder: LanguageTextSchema.optional().transform((v) => v ?? EMPTY_TEXT),
    required: z
      .boolean()
      .optional()
      .transform((v) => v ?? false),
    regex: z.string().max(MAX_PATTERN_LENGTH).optional(),
    min: z.number().finite().optional(),
    max: z.number().finite().optional(),
    min_len: count.optional(),
    max_len: count.optional(),
    options: z.array(z.string().trim().min(1).max(256)).max(500).optional(),
  })
  .superRefine((f, ctx) => {
    if (f.regex !== undefined) {
      // Compiled as it will run (RE2, issue 8.6): what passes here can never stall a match.
      const checked = checkFormPattern(f.regex);
      if (!checked.ok) ctx.addIssue({ code: "custom", path: ["regex"], message: checked.problem });
    }
    if (f.min !== undefined && f.max !== undefined && f.min > f.max) {
      ctx.addIssue({ code: "custom", path: ["min"], message: "min must not exceed max" });
    }
    if (f.min_len !== undefined && f.max_len !== undefined && f.min_len > f.max_len) {
      ctx.addIssue({ code: "custom", path: ["min_len"], message: "min_len must not exceed max_len" });
    }
    if (OPTION_TYPES.includes(f.type)) {
      if (!f.options?.length) ctx.addIssue({ code: "custom", path: ["options"], message: `a ${f.type} field needs options` });
      else if (new Set(f.options).size !== f.options.length) {
        ctx.addIssue({ code: "custom", path: ["options"], message: "options must be unique" });
      }
    }
  });

export const ManualFormSchemaSchema = z.object({ fields: z.array(FormFieldSchema).max(100) }).superRefine((s, ctx) => {
  const seen = new Set<string>();
  s.fields.forEach((f, i) => {
    if (seen.has(f.key)) ctx.addIssue({ code: "custom", path: ["fields", i, "key"], message: `duplicate field key ${f.key}` });
    seen.add(f.key);
  });
});

export type FormField = z.infer<typeof FormFieldSchema>;
export type ManualFormSchema = z.infer<typeof ManualFormSchemaSchema>;

/**
 * Reads a stored schema (Product.manualFormSchema). A stored value that does
 * not parse is treated as "no form"; the admin and import paths validate with
 * ManualFormSchemaSchema before storing, so this only guards old or hand-edited rows.
 */
export function readManualFormSchema(value: unknown): ManualFormSchema {
  const parsed = ManualFormSchemaSchema.safeParse(value ?? { fields: [] });
  return parsed.success ? parsed.data : { fields: [] };
}
