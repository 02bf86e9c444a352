"use client";

import { useState } from "react";

const TYPES = ["text", "textarea", "phone", "email", "number", "select", "radio", "checkbox"] as const;

interface Field {
  key: string;
  type: string;
  label: { "zh-CN": string; en: string };
  required: boolean;
  regex?: string;
  min?: number;
  max?: number;
  min_len?: number;
  max_len?: number;
  options?: string[];
}

type Labels = Record<
  | "title"
  | "help"
  | "add"
  | "remove"
  | "key"
  | "type"
  | "labelZh"
  | "labelEn"
  | "required"
  | "regex"
  | "min"
  | "max"
  | "minLen"
  | "maxLen"
  | "options",
  string
>;

const num = (s: string) => (s.trim() === "" ? undefined : Number(s));

/**
 * Edits a product's manual form schema as rows of inputs and submits it as
 * one JSON hidden field (`manual_form_schema`); the server validates it with
 * lib/forms/form-schema.ts ManualFormSchemaSchema.
 */
export function FormSchemaEditor({ initial, labels }: { initial: { fields: unknown[] }; labels: Labels }) {
  const [fields, setFields] = useState<Field[]>(initial.fields as Field[]);
  const set = (i: number, patch: Partial<Field>) => setFields(fields.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  const json = JSON.stringify({
    fields: fields.map((f) => Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined && v !== ""))),
  });
  return (
    <fieldset className="field schema-editor" data-testid="form-schema-editor">
      <legend>{labels.title}</legend>
      <div className="help">{labels.help}</div>
      <input type="hidden" name="manual_form_schema" value={json} />
      {fields.map((f, i) => (
        <div className="schema-field" key={i}>
          <label>
            {labels.key}
            <input value={f.key} onChange={(e) => set(i, { key: e.target.value })} data-field="key" />
          </label>
          <label>
            {labels.type}
            <select value={f.type} onChange={(e) => set(i, { type: e.target.value })} data-field="type">
              {TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </label>
          <label>
            {labels.labelZh}
            <input value={f.label?.["zh-CN"] ?? ""} onChange={(e) => set(i, { label: { ...f.label, "zh-CN": e.target.value } })} />
          </label>
          <label>
            {labels.labelEn}
            <input value={f.label?.en ?? ""} onChange={(e) => set(i, { label: { ...f.label, en: e.target.value } })} />
          </label>
          <label className="inline">
            <input type="checkbox" checked={!!f.required} onChange={(e) => set(i, { required: e.target.checked })} />
            {labels.required}
          </label>
          <label>
            {labels.regex}
            <input value={f.regex ?? ""} onChange={(e) => set(i, { regex: e.target.value || undefined })} />
          </label>
          <label>
            {labels.min}
            <input type="number" value={f.min ?? ""} onChange={(e) => set(i, { min: num(e.target.value) })} />
          </label>
          <label>
            {labels.max}
            <input type="number" value={f.max ?? ""} onChange={(e) => set(i, { max: num(e.target.value) })} />
          </label>
          <label>
            {labels.minLen}
            <input type="number" min={0} value={f.min_len ?? ""} onChange={(e) => set(i, { min_len: num(e.target.value) })} />
          </label>
          <label>
            {labels.maxLen}
            <input type="number" min={0} value={f.max_len ?? ""} onChange={(e) => set(i, { max_len: num(e.target.value) })} />
          </label>
          {["select", "radio", "checkbox"].includes(f.type) ? (
            <label className="wide">
              {labels.options}
              <textarea rows={3} value={(f.options ?? []).join("\n")} onChange={(e) => set(i, { options: e.target.value.split("\n") })} />
            </label>
          ) : null}
          <button type="button" className="btn btn-danger" onClick={() => setFields(fields.filter((_, j) => j !== i))}>
            {labels.remove}
          </button>
        </div>
      ))}
      <div>
        <button
          type="button"
          className="btn"
          onClick={() => setFields([...fields, { key: "", type: "text", label: { "zh-CN": "", en: "" }, required: false }])}
        >
          {labels.add}
        </button>
      </div>
    </fieldset>
  );
}
