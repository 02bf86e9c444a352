import { z } from "zod";

/** A language object always has both keys, "" when left empty (D5). */
export type LanguageText = { "zh-CN": string; en: string };

export const LanguageTextSchema = z
  .object({ "zh-CN": z.string().optional(), en: z.string().optional() })
  .transform((v): LanguageText => ({ "zh-CN": v["zh-CN"] ?? "", en: v.en ?? "" }));

/** Reads a stored JSON value as a complete language object. */
export function toLanguageText(value: unknown): LanguageText {
  const v = (value ?? {}) as Record<string, unknown>;
  return {
    "zh-CN": typeof v["zh-CN"] === "string" ? v["zh-CN"] : "",
    en: typeof v.en === "string" ? v.en : "",
  };
}
