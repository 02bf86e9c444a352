import { Parser } from "htmlparser2";
import { fromMarkdown } from "mdast-util-from-markdown";
import type { Nodes } from "mdast";

// D15: with image exposure off, images are removed from product content (all
// languages): Markdown inline and reference-style images (and the definitions
// only they use), and HTML image elements (<img>, <image>, <input type=image>)
// in any letter case. Real parsers find them (htmlparser2, micromark through
// mdast-util-from-markdown), so quoting tricks, brackets in alt text and
// escaped parentheses in URLs are read as a browser or a Markdown renderer
// reads them; only the found spans are cut, the rest of the text is kept
// byte for byte. Runs on every catalogue snapshot (issue 8.6): see
// markdownIsTame for why the Markdown parser only sees content it handles fast.

type Span = [start: number, end: number];

/** The text without the given spans (sorted or not, overlapping or not). */
function cut(text: string, spans: Span[]): string {
  if (!spans.length) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let out = "";
  let pos = 0;
  for (const [start, end] of spans) {
    if (start > pos) out += text.slice(pos, start);
    pos = Math.max(pos, end);
  }
  return out + text.slice(pos);
}

// An image tag the parser dropped (an end tag such as </img>, or a tag left
// open at the end of the text): cut from there, so no URL stays behind.
const DROPPED_IMAGE_TAG = /<\/?(?:img|image)(?=[\s/>]|$)/i;

/** HTML image elements, by a streaming parser: linear in the length. */
export function stripHtmlImages(text: string): string {
  if (!/<\/?(?:img|image|input)/i.test(text)) return text;
  const spans: Span[] = [];
  let covered = 0;
  const dropped = (until: number) => {
    if (until <= covered) return;
    const m = DROPPED_IMAGE_TAG.exec(text.slice(covered, until));
    if (m) spans.push([covered + m.index, until]);
  };
  const seen = () => {
    dropped(parser.startIndex);
    covered = Math.max(covered, parser.endIndex + 1);
  };
  const parser: Parser = new Parser({
    onopentag(name, attribs) {
      if (name === "img" || name === "image" || (name === "input" && attribs.type?.trim().toLowerCase() === "image")) {
        spans.push([parser.startIndex, parser.endIndex + 1]);
      }
      seen();
    },
    onclosetag(name, implied) {
      if (implied) return; // no text of its own
      if (name === "img" || name === "image") spans.push([parser.startIndex, parser.endIndex + 1]);
      seen();
    },
    ontext: () => seen(),
    oncomment: () => seen(),
    onprocessinginstruction: () => seen(),
  });
  parser.end(text);
  dropped(text.length);
  return cut(text, spans);
}

// micromark is not linear on every input: measured, 2,500 nested list items
// or 50,000 unclosed brackets take seconds. Content is capped at import
// (MAX_CONTENT_LENGTH); beyond that the parser only sees content whose nesting
// and bracket counts keep it fast. Other content holding "![" fails closed.
const TAME = { length: 20_000, brackets: 256, depth: 8 };
const CONTAINER_PREFIX = /^(?: {0,3}(?:>|[-*+]|\d{1,9}[.)])[ \t]*)+/;

function markdownIsTame(text: string): boolean {
  if (text.length > TAME.length) return false;
  let brackets = 0;
  for (let i = text.indexOf("["); i !== -1; i = text.indexOf("[", i + 1)) if (++brackets > TAME.brackets) return false;
  for (const line of text.split("\n")) {
    const markers = CONTAINER_PREFIX.exec(line)?.[0].match(/>|[-*+]|\d[.)]/g)?.length ?? 0;
    if (markers > TAME.depth) return false;
  }
  return true;
}

/** Markdown images, reference images and the definitions only images use. */
export function stripMarkdownImages(text: string): string {
  if (!text.includes("![")) return text; // every Markdown image starts so
  // Fail closed: drop every line that could hold an image, and definitions.
  if (!markdownIsTame(text))
    return text
      .split("\n")
      .filter((l) => !l.includes("![") && !/^\s*\[[^\]]*\]:/.test(l))
      .join("\n");
  const spans: Span[] = [];
  const imageLabels = new Set<string>();
  const linkLabels = new Set<string>();
  const definitions: { id: string; span: Span }[] = [];
  const stack: Nodes[] = [fromMarkdown(text)];
  while (stack.length) {
    const node = stack.pop()!;
    const span: Span = [node.position!.start.offset!, node.position!.end.offset!];
    if (node.type === "image") spans.push(span);
    else if (node.type === "imageReference") {
      spans.push(span);
      imageLabels.add(node.identifier);
    } else if (node.type === "linkReference") linkLabels.add(node.identifier);
    else if (node.type === "definition") definitions.push({ id: node.identifier, span });
    if ("children" in node) for (const child of node.children as Nodes[]) stack.push(child);
  }
  for (const d of definitions) {
    if (!imageLabels.has(d.id) || linkLabels.has(d.id)) continue;
    const [start, end] = d.span;
    spans.push([start, text[end] === "\n" ? end + 1 : end]); // with its line break
  }
  return cut(text, spans);
}

/**
 * Content without images. Cutting one kind can join the text around it into
 * another (`![a]<img>(u)`), so the passes repeat until nothing changes; a
 * text that still changes after a few rounds was built to, and is withheld.
 *
 * The catalogue snapshot strips every product's content again on each
 * rebuild while image exposure is off, and parsing Markdown is not cheap, so
 * results are remembered by content (bounded by the characters they hold).
 */
export function stripImages(content: string): string {
  if (!content.includes("<") && !content.includes("![") && !content.includes("]:")) return content;
  const known = remembered.get(content);
  if (known !== undefined) return known;
  const stripped = stripUntilStable(content);
  remember(content, stripped);
  return stripped;
}

function stripUntilStable(content: string): string {
  let out = content;
  for (let round = 0; round < 4; round++) {
    const next = stripHtmlImages(stripMarkdownImages(out));
    if (next === out) return out;
    out = next;
  }
  return "";
}

const MAX_REMEMBERED_CHARS = 16_000_000;
const remembered = new Map<string, string>();
let rememberedChars = 0;

function remember(content: string, stripped: string): void {
  remembered.set(content, stripped);
  rememberedChars += content.length + stripped.length;
  // Oldest first (a Map keeps insertion order).
  for (const [k, v] of remembered) {
    if (rememberedChars <= MAX_REMEMBERED_CHARS) break;
    remembered.delete(k);
    rememberedChars -= k.length + v.length;
  }
}
