/**
 * A text field of a submitted form: "" when it is absent or when a file was
 * sent in its place (FormData.get answers `string | File | null`).
 */
export function formText(form: FormData | null | undefined, name: string): string {
  const value = form?.get(name);
  return typeof value === "string" ? value : "";
}
