"use client";

import { useActionState, useEffect, useRef, useState } from "react";
import type { CardKeyImportState } from "@/app/admin/(console)/catalog/card-key-actions";

type Labels = Record<
  | "paste"
  | "file"
  | "previewButton"
  | "confirm"
  | "previewTitle"
  | "lines"
  | "new"
  | "duplicateExisting"
  | "duplicateInUpload"
  | "malformed"
  | "line"
  | "changed",
  string
>;

/** A cheap digest of the text, so a preview is only confirmable for the text it counted. */
function digestOf(text: string): string {
  let h = 5381;
  for (let i = 0; i < text.length; i++) h = (h * 33 + text.charCodeAt(i)) >>> 0;
  return `${text.length}:${h}`;
}

/**
 * Paste or pick a file (read in the browser: .txt one key per line, .csv
 * first column), preview the counts, then confirm. The keys go to the server
 * only in the form post; the response carries counts, never keys.
 */
export function CardKeyImport({
  skuId,
  action,
  labels,
}: {
  skuId: number;
  action: (s: CardKeyImportState, f: FormData) => Promise<CardKeyImportState>;
  labels: Labels;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  const [text, setText] = useState("");
  const [kind, setKind] = useState<"txt" | "csv">("txt");
  const [source, setSource] = useState<"admin-paste" | "admin-upload">("admin-paste");
  // Keys pasted before the page's script ran are in the box but not in `text`
  // (no change event reached React): take them when the form comes alive, so
  // Preview does not stay disabled over a full box.
  const textBox = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const typed = textBox.current?.value ?? "";
    if (typed) setText(typed);
  }, []);
  const digest = digestOf(`${kind}\n${text}`);
  const preview = state?.preview && state.previewedFor === digest ? state.preview : undefined;
  return (
    <form action={formAction} className="form-grid" data-testid="card-key-import">
      <input type="hidden" name="skuId" value={skuId} />
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="source" value={source} />
      <input type="hidden" name="digest" value={digest} />
      <input type="hidden" name="expectFresh" value={preview?.fresh ?? 0} />
      <div className="field">
        <label htmlFor="card-keys-text">{labels.paste}</label>
        <textarea
          id="card-keys-text"
          ref={textBox}
          name="text"
          rows={8}
          value={text}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => {
            setText(e.target.value);
            setKind("txt");
            setSource("admin-paste");
          }}
        />
      </div>
      <div className="field">
        <label htmlFor="card-keys-file">{labels.file}</label>
        <input
          id="card-keys-file"
          type="file"
          accept=".txt,.csv,text/plain,text/csv"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (!file) return;
            // React does not await a handler; a file the browser cannot read leaves the form as it was.
            void file.text().then((text) => {
              setText(text);
              setKind(file.name.toLowerCase().endsWith(".csv") ? "csv" : "txt");
              setSource("admin-upload");
            });
          }}
        />
      </div>
      <div className="btn-row">
        <button type="submit" name="intent" value="preview" className="btn" disabled={pending || !text.trim()}>
          {labels.previewButton}
        </button>
        {preview && preview.fresh > 0 ? (
          <button type="submit" name="intent" value="confirm" className="btn btn-primary" disabled={pending}>
            {labels.confirm.replace("{count}", String(preview.fresh))}
          </button>
        ) : null}
      </div>
      {preview ? (
        <div className="card" data-testid="card-key-preview">
          <h2>{labels.previewTitle}</h2>
          <dl className="kv">
            <dt>{labels.lines}</dt>
            <dd data-count="lines">{preview.lines}</dd>
            <dt>{labels.new}</dt>
            <dd data-count="new">{preview.fresh}</dd>
            <dt>{labels.duplicateExisting}</dt>
            <dd data-count="duplicate-existing">{preview.duplicateExisting}</dd>
            <dt>{labels.duplicateInUpload}</dt>
            <dd data-count="duplicate-upload">{preview.duplicateInUpload}</dd>
            <dt>{labels.malformed}</dt>
            <dd data-count="malformed">{preview.malformed}</dd>
          </dl>
          {preview.problems.length ? (
            <ul className="problems">
              {preview.problems.map((p) => (
                <li key={p.line}>{labels.line.replace("{line}", String(p.line)).replace("{reason}", p.reason)}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : state?.preview ? (
        <div className="msg msg-warn">{labels.changed}</div>
      ) : null}
      {state && state.message ? (
        <div role={state.ok ? "status" : "alert"} className={`msg ${state.ok ? "msg-ok" : "msg-error"}`}>
          {state.message}
        </div>
      ) : null}
    </form>
  );
}
