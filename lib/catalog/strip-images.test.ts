import { describe, expect, it } from "vitest";
import { stripImages } from "./strip-images";

// D15: with image exposure off no image may survive in product content.
describe("stripImages removes every image form from content", () => {
  it("Markdown inline images, with titles, parentheses in the URL and <bracketed> URLs", () => {
    expect(stripImages("a ![x](http://h/a.png) b")).toBe("a  b");
    expect(stripImages('![x](/u/a.png "title") ok')).toBe(" ok");
    expect(stripImages("![x](http://h/a_(1).png)")).toBe("");
    expect(stripImages("![x](<http://h/a b.png>)")).toBe("");
    expect(stripImages("[![badge](http://h/b.svg)](http://h)")).toBe("[](http://h)");
  });

  it("reference-style images and their definitions, but not definitions a link still uses", () => {
    const md = "Look ![logo][l1] and ![alt][] and ![short]\n\n[l1]: http://h/1.png\n[alt]: http://h/2.png \"t\"\n[short]: http://h/3.png\n";
    const out = stripImages(md);
    expect(out).not.toMatch(/png/);
    expect(out).toContain("Look");
    const shared = "![pic][ref] see [here][ref]\n\n[ref]: http://h/page\n";
    expect(stripImages(shared)).toBe(" see [here][ref]\n\n[ref]: http://h/page\n");
  });

  it("HTML img elements in any letter case, with > inside attributes", () => {
    expect(stripImages('<p>a<img src="x.png">b<IMG SRC=y.png/>c<Img alt="1>2" src=\'z\'></img></p>')).toBe("<p>abc</p>");
  });

  it("leaves text without images unchanged", () => {
    const text = "Plain **text** with a [link](http://h/x) and 2 < 3 > 1.";
    expect(stripImages(text)).toBe(text);
    expect(stripImages("")).toBe("");
  });
});
