/**
 * The one error type of the product. `code` is the wire error_code of spec
 * section 7 (or an internal one); `publicMessage` is safe to show a client:
 * it never contains secrets, signatures, card keys or form values (D1).
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    readonly publicMessage: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${code}: ${publicMessage}`);
    this.name = "AppError";
  }
}

export const badRequest = (message: string) => new AppError("bad_request", 400, message);
export const notFound = (code: string, message: string) => new AppError(code, 404, message);
