/**
 * A value now, or a promise of it. Issue 40.4 (decision 0100): the supplier
 * API's pipeline stays synchronous while every step has its value at hand (a
 * cached key, settings, rate allowance and catalogue: nearly every read), and
 * becomes a promise only at the first step that must wait. In this process an
 * `async` step is not free: Next's AsyncLocalStorage turns on promise hooks,
 * so every promise and `await` of a request ran hook code; a catalogue read
 * spent more time there than in its own logic.
 */
export type Maybe<T> = T | Promise<T>;

/** Any thenable (a Prisma query's promise is one without being a Promise): none of the pipeline's values has a `then`. */
export function isPromise<T>(x: Maybe<T>): x is Promise<T> {
  return typeof (x as { then?: unknown } | null)?.then === "function";
}

/**
 * `next(value)`, now if the value is here, else when it comes. A throw inside
 * `next` on the synchronous side is a synchronous throw: the caller catches
 * both (define-endpoint.ts does, once, for the whole pipeline).
 */
export function after<T, U>(x: Maybe<T>, next: (value: T) => Maybe<U>): Maybe<U> {
  return isPromise(x) ? x.then(next) : next(x);
}
