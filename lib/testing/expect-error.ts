import { expect } from "vitest";
import { AppError } from "../errors";

/**
 * Awaits `p` and checks that it rejected with an AppError of this code (and,
 * when given, this HTTP status). Returns the error for further checks.
 */
export async function expectError(p: Promise<unknown>, code: string, status?: number): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, `expected ${code}`).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
  if (status !== undefined) expect((err as AppError).status).toBe(status);
  return err as AppError;
}
