import { z } from "zod";

/** An e-mail address as typed (console, CLI), stored and looked up lower-case. */
export const EmailSchema = z
  .email("must be an e-mail address")
  .max(254)
  .transform((e) => e.trim().toLowerCase());
