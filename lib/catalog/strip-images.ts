// D15: with image exposure off, images are removed from product content (all
// languages): Markdown inline images, reference-style images (and the
// definitions only they use) and HTML <img> elements in any letter case.

// ![alt](url "title"), url may hold one level of parentheses or be <bracketed>.
const INLINE_IMAGE = /!\[(?:[^\]\\]|\\.)*\]\(\s*(?:<[^>]*>|(?:[^()\s]|\([^()]*\))*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;
// ![alt][label], ![alt][] and the shortcut ![alt].
const REFERENCE_IMAGE = /!\[((?:[^\]\\]|\\.)*)\](?:\[((?:[^\]\\]|\\.)*)\])?/g;
const IMG_TAG = /<img\b(?:[^>"']|"[^"]*"|'[^']*')*>|<\/img\s*>/gi;
// Link definitions: [label]: url "title"
const DEFINITION = /^ {0,3}\[((?:[^\]\\]|\\.)+)\]:[ \t]*(?:<[^>\n]*>|\S+)(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?[ \t]*$\n?/gm;
// Non-image uses of a label: [text][label] or [label] not preceded by "!".
const LINK_REFERENCE = /(^|[^!\\])\[((?:[^\]\\]|\\.)*)\](?:\[((?:[^\]\\]|\\.)*)\])?/g;

const norm = (label: string) => label.trim().replace(/\s+/g, " ").toLowerCase();

export function stripImages(content: string): string {
  if (!content) return content;
  let out = content.replace(IMG_TAG, "").replace(INLINE_IMAGE, "");

  const imageLabels = new Set<string>();
  out = out.replace(REFERENCE_IMAGE, (_m, alt: string, label?: string) => {
    imageLabels.add(norm(label || alt));
    return "";
  });
  if (imageLabels.size) {
    const withoutDefs = out.replace(DEFINITION, "");
    const linkLabels = new Set<string>();
    for (const m of withoutDefs.matchAll(LINK_REFERENCE)) linkLabels.add(norm(m[3] || m[2]));
    out = out.replace(DEFINITION, (line, label: string) => (imageLabels.has(norm(label)) && !linkLabels.has(norm(label)) ? "" : line));
  }
  return out;
}
