import { describe, expect, it } from "vitest";
import { generateSignature, httpBuildQuery } from "../testing/acg-client";
import { FormError, parseForm } from "./php-form";
import { acgSignature, signatureMatches, signedBytes } from "./sign";

// Issue 37.2: ACG-Faka's signature (their app/Util/Str.php lines 97-107).
// The expected digests were worked out by hand: the signed text written out
// below, then `printf '%s' '<text>' | md5sum`.

describe("issue 37.2: ACG-Faka's MD5 signature", () => {
  it("issue 37.2: drops sign and empty values, sorts the names, appends &key=", () => {
    const fields = parseForm("code=12&app_key=abc&empty=&app_id=7&sign=ffffffffffffffffffffffffffffffff");
    expect(signedBytes(fields, "abc").toString("utf8")).toBe("app_id=7&app_key=abc&code=12&key=abc");
    expect(acgSignature(fields, "abc")).toBe("46be0348fc905c8ef2207d7f28ee088f");
  });

  it("issue 37.2: spaces, '+', nested sku[k]=v in the order sent, UTF-8, and a key urldecoded", () => {
    const body = "title=%E5%95%86%E5%93%81&contact=a+b%2Bc&sku%5Bx+y%5D=1&sku%5Bb%5D=&app_id=9";
    const fields = parseForm(body);
    expect(signedBytes(fields, "k+%41").toString("utf8")).toBe("app_id=9&contact=a b+c&sku[x y]=1&sku[b]=&title=商品&key=k A");
    expect(acgSignature(fields, "k+%41")).toBe("fb1770bc036d0250e2913d1960b49780");
  });

  it("issue 37.2: nothing left to sign is '&key=<key>'", () => {
    expect(acgSignature(parseForm("sign=x&blank="), "s3cret")).toBe("9873070e3cf09e05a106cc8753cbfdd9");
  });

  it("issue 37.2: the test client's PHP rules agree with the server's on the same fields", () => {
    const data = { app_id: "9", contact: "a b+c", sku: { "x y": "1", b: "" }, title: "商品", race: "", n: 3 };
    const fields = parseForm(httpBuildQuery(data));
    expect(acgSignature(fields, "k+%41")).toBe(generateSignature(data, "k+%41"));
  });

  it("issue 37.2: compares only a lower-case 32-digit hex sign, in constant time", () => {
    const fields = parseForm("app_id=7&app_key=abc&code=12");
    const sign = "46be0348fc905c8ef2207d7f28ee088f";
    expect(signatureMatches(parseForm(`app_id=7&app_key=abc&code=12&sign=${sign}`), "abc")).toBe(true);
    expect(signatureMatches(parseForm(`app_id=7&app_key=abc&code=12&sign=${sign.toUpperCase()}`), "abc")).toBe(false);
    expect(signatureMatches(parseForm(`app_id=7&app_key=abc&code=13&sign=${sign}`), "abc")).toBe(false);
    expect(signatureMatches(fields, "abc")).toBe(false);
  });

  it("issue 37.2: a form PHP would read otherwise than we do is refused", () => {
    for (const body of ["a=1&a=2", "a.b=1", "1=2", "sku[a][b]=1", "x=%ZZ", "x=%C3%28", "sku[a]=1&sku=2"]) {
      expect(() => parseForm(body), body).toThrow(FormError);
    }
    expect([...parseForm("sku[]=a&sku[]=b").get("sku")!]).toEqual([
      ["0", "a"],
      ["1", "b"],
    ]);
  });
});
