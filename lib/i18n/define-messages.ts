// One screen's (or domain's) console texts in both languages. The English table
// defines the keys; the Chinese one must have exactly the same keys: a missing
// one fails the build, and so does an extra one (excess property check).
export function defineMessages<const E extends Record<string, string>>(en: E, zhCN: { [K in keyof E]: string }) {
  return { en, zhCN };
}
