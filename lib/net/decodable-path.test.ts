import { describe, expect, it } from "vitest";
import { isDecodablePath } from "./decodable-path";

describe("issue 34.5: one isDecodablePath for the production server and the API router", () => {
  it("issue 34.5: malformed percent-encoding in the path is refused; the query is not looked at", () => {
    for (const ok of ["/", "/api/v1/products", "/a%20b", "/%E4%B8%AD?x=%zz", "/p?q=%"]) expect(isDecodablePath(ok), ok).toBe(true);
    for (const bad of ["/%zz", "/a%", "/%E4%B8", "/%zz?x=1"]) expect(isDecodablePath(bad), bad).toBe(false);
  });
});
