import { describe, expect, it } from "vitest";
import { UpstreamProductSchema } from "../upstream/upstream-client";
import { CatalogFileSchema, MAX_CONTENT_LENGTH } from "./catalog-file-schema";
import { SaveProductSchema } from "./save-product";

// Issue 8.6: content is parsed for D15 image stripping on every catalogue
// snapshot, so every import caps its length: catalogue file, console, upstream.

const long = "x".repeat(MAX_CONTENT_LENGTH + 1);
const upstreamProduct = (content: object) => ({
  id: 1,
  slug: "p",
  title: { en: "P" },
  description: { en: "" },
  content,
  price_amount: "1.00",
  is_active: true,
  category_id: 1,
  delivery_format: "text",
  delivery_delimiter: "----",
  logo_url: "",
  images: [],
  skus: [],
});

describe("issue 8.6: a content length cap at every import", () => {
  it("issue 8.6: an upstream product whose content is longer than the cap is refused as malformed", () => {
    expect(UpstreamProductSchema.safeParse(upstreamProduct({ en: "x".repeat(MAX_CONTENT_LENGTH) })).success).toBe(true);
    expect(UpstreamProductSchema.safeParse(upstreamProduct({ en: long })).success).toBe(false);
    expect(UpstreamProductSchema.safeParse(upstreamProduct({ "zh-CN": long })).success).toBe(false);
  });

  it("issue 8.6: the catalogue file and the console refuse content longer than the cap", () => {
    const file = (content: object) =>
      CatalogFileSchema.safeParse({
        products: [
          {
            slug: "p",
            category: "c",
            title: { en: "P" },
            content,
            fulfillment_type: "auto",
            price_amount: "1.00",
            skus: [{ sku_code: "S1" }],
          },
        ],
      });
    expect(file({ en: "ok" }).success).toBe(true);
    expect(file({ en: long }).success).toBe(false);
    const consoleContent = SaveProductSchema.shape.content;
    expect(consoleContent.safeParse({ en: "ok" }).success).toBe(true);
    expect(consoleContent.safeParse({ en: long }).success).toBe(false);
  });
});
