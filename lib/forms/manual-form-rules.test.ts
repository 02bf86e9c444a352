import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { ManualFormSchemaSchema, readManualFormSchema } from "./form-schema";
import { escapeHtml, formForProduct, normalizeManualForm } from "./normalize-form";

// Spec 4.5 form rules and D33 (Profile P manual forms).

const schema = ManualFormSchemaSchema.parse({
  fields: [
    { key: "account", type: "text", label: { en: "Account" }, required: true, min_len: 3, max_len: 10, regex: "^[A-Za-z0-9<>&]+$" },
    { key: "note", type: "textarea" },
    { key: "phone", type: "phone" },
    { key: "email", type: "email" },
    { key: "level", type: "number", min: 1, max: 99 },
    { key: "server", type: "select", options: ["asia", "europe"] },
    { key: "side", type: "radio", options: ["red", "blue"] },
    { key: "extras", type: "checkbox", options: ["a", "b", "c"] },
  ],
});

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error("expected an error");
}

describe("manual_form_schema (spec 4.5 schema keys)", () => {
  it("accepts every field type and fills label/placeholder/required defaults", () => {
    const f = schema.fields[1];
    expect(f).toMatchObject({
      key: "note",
      type: "textarea",
      required: false,
      label: { "zh-CN": "", en: "" },
      placeholder: { "zh-CN": "", en: "" },
    });
    expect(schema.fields[0].label).toEqual({ "zh-CN": "", en: "Account" });
  });

  it("rejects a bad key, an unknown type, a broken regex, options missing, duplicate keys, inverted ranges", () => {
    const bad = [
      { fields: [{ key: "Bad-Key", type: "text" }] },
      { fields: [{ key: "x".repeat(65), type: "text" }] },
      { fields: [{ key: "a", type: "date" }] },
      { fields: [{ key: "a", type: "text", regex: "(" }] },
      { fields: [{ key: "a", type: "select" }] },
      { fields: [{ key: "a", type: "checkbox", options: ["x", "x"] }] },
      {
        fields: [
          { key: "a", type: "text" },
          { key: "a", type: "email" },
        ],
      },
      { fields: [{ key: "a", type: "number", min: 5, max: 1 }] },
      { fields: [{ key: "a", type: "text", min_len: 5, max_len: 1 }] },
      { fields: [{ key: "a", type: "text", min_len: -1 }] },
      {},
    ];
    for (const b of bad) expect(ManualFormSchemaSchema.safeParse(b).success, JSON.stringify(b)).toBe(false);
  });

  it("reads an unparseable stored schema as no form", () => {
    expect(readManualFormSchema({ fields: [{ key: "BAD" }] })).toEqual({ fields: [] });
    expect(readManualFormSchema(null)).toEqual({ fields: [] });
  });
});

describe("manual_form_data normalisation (D33)", () => {
  it("trims, then validates the trimmed value, then HTML-escapes for storage", () => {
    // "  ab<&  " is 3 characters after trimming: passes min_len 3 only because trimming came first,
    // and the regex sees the raw characters, not their escaped form.
    const out = normalizeManualForm(schema, { account: "  ab<&  ", note: ` "hi" 'there' ` });
    expect(out).toEqual({ account: "ab&lt;&amp;", note: "&quot;hi&quot; &#39;there&#39;" });
  });

  it("counts an empty string after trimming as absent (required fails, optional is dropped)", () => {
    expect(errorOf(() => normalizeManualForm(schema, { account: "   " })).publicMessage).toBe("manual_form_data.account: is required");
    expect(normalizeManualForm(schema, { account: "abc", note: "  ", level: " ", server: "" })).toEqual({ account: "abc" });
  });

  it("rejects a missing required field and an unknown field", () => {
    expect(errorOf(() => normalizeManualForm(schema, {})).publicMessage).toBe("manual_form_data.account: is required");
    const e = errorOf(() => normalizeManualForm(schema, { account: "abc", hacker: "x" }));
    expect(e.publicMessage).toBe("manual_form_data.hacker: unknown field");
    // A key that is not a valid field key is not echoed.
    expect(errorOf(() => normalizeManualForm(schema, { account: "abc", "<script>": "x" })).publicMessage).toBe(
      "manual_form_data: unknown field",
    );
  });

  it("checks types", () => {
    expect(errorOf(() => normalizeManualForm(schema, { account: 123 })).publicMessage).toBe("manual_form_data.account: must be a string");
    expect(errorOf(() => normalizeManualForm(schema, { account: "abc", level: "ten" })).publicMessage).toBe(
      "manual_form_data.level: must be a number",
    );
    expect(errorOf(() => normalizeManualForm(schema, { account: "abc", level: true })).code).toBe("bad_request");
    expect(errorOf(() => normalizeManualForm(schema, { account: "abc", extras: "a" })).publicMessage).toBe(
      "manual_form_data.extras: must be an array of strings",
    );
    expect(errorOf(() => normalizeManualForm(schema, { account: "abc", email: "not-an-email" })).publicMessage).toBe(
      "manual_form_data.email: must be an e-mail address",
    );
    expect(errorOf(() => normalizeManualForm(schema, { account: "abc", phone: "call me" })).publicMessage).toBe(
      "manual_form_data.phone: must be a phone number",
    );
    expect(normalizeManualForm(schema, { account: "abc", email: " a@b.co ", phone: " +86 138-0000-0000 " })).toEqual({
      account: "abc",
      email: "a@b.co",
      phone: "+86 138-0000-0000",
    });
  });

  it("checks lengths in characters, not UTF-16 units", () => {
    expect(errorOf(() => normalizeManualForm(schema, { account: "ab" })).publicMessage).toBe(
      "manual_form_data.account: must be at least 3 characters",
    );
    expect(errorOf(() => normalizeManualForm(schema, { account: "abcdefghijk" })).publicMessage).toBe(
      "manual_form_data.account: must be at most 10 characters",
    );
    const emojiSchema = ManualFormSchemaSchema.parse({ fields: [{ key: "e", type: "text", max_len: 3 }] });
    expect(normalizeManualForm(emojiSchema, { e: "😀😀😀" })).toEqual({ e: "😀😀😀" });
  });

  it("checks the regular expression", () => {
    expect(errorOf(() => normalizeManualForm(schema, { account: "ab cd" })).publicMessage).toBe(
      "manual_form_data.account: does not match the required format",
    );
  });

  it("accepts numbers as JSON numbers or numeric strings, stores numbers, and checks ranges", () => {
    expect(normalizeManualForm(schema, { account: "abc", level: 5 })).toEqual({ account: "abc", level: 5 });
    expect(normalizeManualForm(schema, { account: "abc", level: " 42.5 " })).toEqual({ account: "abc", level: 42.5 });
    expect(errorOf(() => normalizeManualForm(schema, { account: "abc", level: 0 })).publicMessage).toBe(
      "manual_form_data.level: must be at least 1",
    );
    expect(errorOf(() => normalizeManualForm(schema, { account: "abc", level: "100" })).publicMessage).toBe(
      "manual_form_data.level: must be at most 99",
    );
    expect(errorOf(() => normalizeManualForm(schema, { account: "abc", level: "1e999" })).publicMessage).toBe(
      "manual_form_data.level: must be a number",
    );
  });

  it("checks select and radio options on the trimmed value", () => {
    expect(normalizeManualForm(schema, { account: "abc", server: " asia ", side: "blue" })).toEqual({
      account: "abc",
      server: "asia",
      side: "blue",
    });
    expect(errorOf(() => normalizeManualForm(schema, { account: "abc", server: "mars" })).publicMessage).toBe(
      "manual_form_data.server: is not one of the allowed options",
    );
    expect(errorOf(() => normalizeManualForm(schema, { account: "abc", side: "green" })).publicMessage).toBe(
      "manual_form_data.side: is not one of the allowed options",
    );
  });

  it("trims, de-duplicates and sorts checkbox values before checking options", () => {
    expect(normalizeManualForm(schema, { account: "abc", extras: [" c", "a ", "c", "", "a"] })).toEqual({
      account: "abc",
      extras: ["a", "c"],
    });
    expect(normalizeManualForm(schema, { account: "abc", extras: ["  "] })).toEqual({ account: "abc" });
    expect(errorOf(() => normalizeManualForm(schema, { account: "abc", extras: ["a", "z"] })).publicMessage).toBe(
      "manual_form_data.extras: contains a value that is not an allowed option",
    );
  });

  it("never puts a submitted value into an error message", () => {
    const secret = "TOPSECRET-VALUE";
    const attempts = [
      { account: secret },
      { account: "abc", server: secret },
      { account: "abc", level: secret },
      { account: "abc", extras: [secret] },
      { account: `${secret} x` },
    ];
    for (const a of attempts) expect(errorOf(() => normalizeManualForm(schema, a)).publicMessage).not.toContain(secret);
  });

  it("normalises auto, and upstream without a schema, to an empty object (spec 4.5 rule 2)", () => {
    expect(formForProduct("auto", schema, { account: "abc", junk: "x" })).toEqual({});
    expect(formForProduct("upstream", { fields: [] }, { anything: "x" })).toEqual({});
    expect(formForProduct("upstream", schema, { account: " abc " })).toEqual({ account: "abc" });
    expect(() => formForProduct("manual", { fields: [] }, { anything: "x" })).toThrow(AppError);
    expect(formForProduct("manual", { fields: [] }, undefined)).toEqual({});
  });

  it("escapes the five HTML characters", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });
});

describe("issue 8.6: form patterns run on a linear-time engine", () => {
  const hostile = ManualFormSchemaSchema.parse({ fields: [{ key: "code", type: "text", regex: "^([a-z0-9]+)*$" }] });

  it("issue 8.6: a pattern with nested quantifiers is tested in linear time (V8 would take minutes)", () => {
    const started = performance.now();
    const err = errorOf(() => normalizeManualForm(hostile, { code: "a".repeat(40) + "!" }));
    expect(performance.now() - started).toBeLessThan(100);
    expect(err.publicMessage).toBe("manual_form_data.code: does not match the required format");
    expect(normalizeManualForm(hostile, { code: "abc123" })).toEqual({ code: "abc123" });
  });

  it("issue 8.6: every boundary refuses a pattern the engine cannot run (lookarounds, backreferences) or too long", () => {
    for (const regex of ["^(?=a)a$", "^(a)\\1$", "^(?!x).*$", "x".repeat(1001)]) {
      const r = ManualFormSchemaSchema.safeParse({ fields: [{ key: "a", type: "text", regex }] });
      expect(r.success, regex.slice(0, 20)).toBe(false);
    }
    // A stored schema that slipped past the entry checks is read as unusable, never run on V8's engine.
    expect(readManualFormSchema({ fields: [{ key: "a", type: "text", regex: "^(?=a)a$" }] })).toEqual({ fields: [] });
  });

  it("issue 8.6: text values longer than 10,000 characters are refused before any check runs", () => {
    const open = ManualFormSchemaSchema.parse({
      fields: [
        { key: "note", type: "textarea" },
        { key: "level", type: "number" },
      ],
    });
    expect(errorOf(() => normalizeManualForm(open, { note: "x".repeat(10_001) })).publicMessage).toBe(
      "manual_form_data.note: must be at most 10000 characters",
    );
    expect(errorOf(() => normalizeManualForm(open, { level: "1".repeat(10_001) })).publicMessage).toBe(
      "manual_form_data.level: must be at most 10000 characters",
    );
    expect(normalizeManualForm(open, { note: "x".repeat(10_000) })).toEqual({ note: "x".repeat(10_000) });
  });
});
