import { toLanguageText } from "../protocol/language";
import type { Locale } from "./messages";

/** "2026-03-01 12:30:05 UTC": one unambiguous form for both languages. */
export function formatDateTime(d: Date | null | undefined): string {
  return d ? d.toISOString().replace("T", " ").slice(0, 19) + " UTC" : "—";
}

/** A stored language object in the console's language, falling back to the other one. */
export function pickText(value: unknown, locale: Locale): string {
  const text = toLanguageText(value);
  return text[locale] || text[locale === "en" ? "zh-CN" : "en"];
}
