import { Parser } from "htmlparser2";

// Submits a console form over plain HTTP the way a browser without
// JavaScript does (React's progressive enhancement of server actions): the
// page's form is read from its HTML, hidden action fields included, and
// posted back as multipart/form-data with some fields changed and files
// attached. For tests that drive the console on a server they reach only
// over HTTP (scripts/multi-instance.test.ts), without a browser.

export interface FormField {
  name: string;
  value: string;
}

/** The successful controls of the form with `data-testid` = testId, in document order, as a browser would send them. */
export function readForm(html: string, testId: string): FormField[] {
  const fields: FormField[] = [];
  let depth = 0; // > 0 inside the wanted form
  let textarea: { name: string; text: string } | null = null;
  let select: { name: string; first?: string; selected?: string } | null = null;
  let option: { value?: string; selected: boolean; text: string } | null = null;
  const parser = new Parser(
    {
      onopentag(tag, a) {
        if (tag === "form") {
          if (depth > 0 || a["data-testid"] === testId) depth++;
          return;
        }
        if (depth === 0 || a.disabled !== undefined) return;
        if (tag === "input" && a.name) {
          const type = (a.type ?? "text").toLowerCase();
          if (type === "file" || type === "submit" || type === "button" || type === "image" || type === "reset") return;
          if ((type === "checkbox" || type === "radio") && a.checked === undefined) return;
          fields.push({ name: a.name, value: a.value ?? (type === "checkbox" || type === "radio" ? "on" : "") });
        } else if (tag === "textarea" && a.name) {
          textarea = { name: a.name, text: "" };
        } else if (tag === "select" && a.name) {
          select = { name: a.name };
        } else if (tag === "option" && select) {
          option = { value: a.value, selected: a.selected !== undefined, text: "" };
        }
      },
      ontext(text) {
        if (textarea) textarea.text += text;
        if (option) option.text += text;
      },
      onclosetag(tag) {
        if (tag === "form" && depth > 0) depth--;
        else if (tag === "textarea" && textarea) {
          // A browser drops the one newline that may follow <textarea>.
          fields.push({ name: textarea.name, value: textarea.text.replace(/^\r?\n/, "") });
          textarea = null;
        } else if (tag === "option" && select && option) {
          const value = option.value ?? option.text;
          select.first ??= value;
          if (option.selected) select.selected = value;
          option = null;
        } else if (tag === "select" && select) {
          const value = select.selected ?? select.first;
          if (value !== undefined) fields.push({ name: select.name, value });
          select = null;
        }
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: false },
  );
  parser.write(html);
  parser.end();
  if (!fields.length) throw new Error(`no form with data-testid="${testId}" in the page`);
  return fields;
}

/** Fields with `changes` applied (a name's first field replaced, a new name appended) and files attached. */
export function formBody(
  fields: FormField[],
  changes: Record<string, string>,
  files: { name: string; filename: string; type: string; bytes: Buffer }[] = [],
): FormData {
  const form = new FormData();
  const done = new Set<string>();
  for (const f of fields) {
    if (f.name in changes) {
      if (!done.has(f.name)) form.append(f.name, changes[f.name]);
      done.add(f.name);
    } else {
      form.append(f.name, f.value);
    }
  }
  for (const [name, value] of Object.entries(changes)) if (!done.has(name)) form.append(name, value);
  for (const f of files) form.append(f.name, new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.filename);
  return form;
}
