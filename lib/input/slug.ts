import { z } from "zod";

// A slug (a category's, a product's, a member level's): lower-case letters,
// digits and '-'. Shared by the catalogue and the member levels, so it lives
// below both (issue 34.1).
export const SLUG = /^[a-z0-9][a-z0-9-]{0,99}$/;

export const Slug = z.string().regex(SLUG, "must be lowercase letters, digits and '-' (at most 100)");
