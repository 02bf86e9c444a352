// JSON.parse does not always say where it failed (V8's "Unexpected token"
// messages carry no position, and quote the text around the error, which may
// be a card key). This walks the text with the JSON grammar and returns the
// offset of the first character that cannot be valid, so the operator gets a
// line and column without the content.

/** Thrown inside the walk only: where the text stopped being JSON. */
class JsonErrorAt extends Error {
  constructor(readonly at: number) {
    super("invalid JSON");
  }
}

export function locateJsonError(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const fail = (): never => {
    throw new JsonErrorAt(i);
  };
  const expect = (ch: string) => (text[i] === ch ? i++ : fail());
  const literal = (word: string) => (text.startsWith(word, i) ? (i += word.length) : fail());
  const string = () => {
    expect('"');
    while (i < text.length && text[i] !== '"') {
      if (text.charCodeAt(i) < 0x20) fail();
      i += text[i] === "\\" ? 2 : 1;
    }
    expect('"');
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail();
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        ws();
        string();
        ws();
        expect(":");
        value();
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        expect("}");
        return;
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        expect("]");
        return;
      }
    }
    if (c === '"') return string();
    if (c === "t") return void literal("true");
    if (c === "f") return void literal("false");
    if (c === "n") return void literal("null");
    return number();
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return -1;
  } catch (err) {
    return err instanceof JsonErrorAt ? Math.min(err.at, text.length) : -1;
  }
}
