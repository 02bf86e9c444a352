"use client";

import { useState } from "react";

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * A small Markdown subset (headings, lists, bold, italic, code, links,
 * images, paragraphs); lines that start with "<" are taken as HTML as they
 * are. The result is shown in a sandboxed iframe (no scripts, no same-origin),
 * so previewing hostile content cannot act in the console.
 */
export function renderContent(src: string): string {
  const inline = (s: string) =>
    esc(s)
      .replace(/!\[([^\]]*)\]\(([^)\s]+)\)/g, '<img alt="$1" src="$2">')
      .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>')
      .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
      .replace(/\*([^*]+)\*/g, "<em>$1</em>")
      .replace(/`([^`]+)`/g, "<code>$1</code>");
  const out: string[] = [];
  let list = false;
  for (const line of src.split(/\r?\n/)) {
    const item = /^\s*[-*]\s+(.*)$/.exec(line);
    if (!item && list) {
      out.push("</ul>");
      list = false;
    }
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (item) {
      if (!list) {
        out.push("<ul>");
        list = true;
      }
      out.push(`<li>${inline(item[1])}</li>`);
    } else if (h) out.push(`<h${h[1].length}>${inline(h[2])}</h${h[1].length}>`);
    else if (line.trimStart().startsWith("<")) out.push(line);
    else if (line.trim()) out.push(`<p>${inline(line)}</p>`);
  }
  if (list) out.push("</ul>");
  return out.join("\n");
}

export function ContentField({
  name,
  label,
  defaultValue,
  previewLabel,
}: {
  name: string;
  label: string;
  defaultValue: string;
  previewLabel: string;
}) {
  const [value, setValue] = useState(defaultValue);
  const [show, setShow] = useState(false);
  const id = `f-${name}`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} name={name} rows={6} value={value} onChange={(e) => setValue(e.target.value)} />
      <button type="button" className="btn" onClick={() => setShow(!show)} aria-expanded={show}>
        {previewLabel}
      </button>
      {show ? (
        <iframe
          className="content-preview"
          sandbox=""
          title={previewLabel}
          srcDoc={`<!doctype html><meta charset="utf-8"><style>body{font-family:system-ui,sans-serif;margin:8px}img{max-width:100%}</style>${renderContent(value)}`}
        />
      ) : null}
    </div>
  );
}
