/**
 * A read of one row per key that many requests make at once (the order
 * context, lib/orders/order-context.ts), sent as few statements: at most
 * LANES statements are in flight; a read that arrives while they are waits,
 * and the next free lane takes every waiting key (up to MAX_GROUP) as ONE
 * statement. A read that finds a lane free goes at once, alone: no wait is
 * added when there is no crowd.
 *
 * Issue 40.1: on two cores every statement costs both processes a send, a
 * receive and a wake-up, whatever it does; the order context was 88 % of the
 * order path's statements (5,284 of 5,958 under 32 buyers).
 *
 * A group statement that fails is read again key by key, so one request's
 * bad key (a value PostgreSQL refuses) fails that request only, as before.
 */
export function groupedReads<K, R>(opts: {
  readOne: (key: K) => Promise<R>;
  /** The results in the order of `keys`. */
  readGroup: (keys: K[]) => Promise<R[]>;
}): (key: K) => Promise<R> {
  const waiting: { key: K; resolve: (r: R) => void; reject: (err: unknown) => void }[] = [];
  let inFlight = 0;

  const pump = () => {
    while (inFlight < LANES && waiting.length > 0) {
      const group = waiting.splice(0, MAX_GROUP);
      inFlight++;
      void run(group).finally(() => {
        inFlight--;
        pump();
      });
    }
  };

  const run = async (group: typeof waiting) => {
    if (group.length > 1) {
      try {
        const results = await opts.readGroup(group.map((w) => w.key));
        group.forEach((w, i) => w.resolve(results[i]));
        return;
      } catch {
        // Read again one by one below: each request gets its own answer or error.
      }
    }
    await Promise.all(group.map((w) => opts.readOne(w.key).then(w.resolve, w.reject)));
  };

  return (key) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ key, resolve, reject });
      pump();
    });
}

/** Statements in flight at once, as place-order-batch.ts's LANES: enough to keep two cores of PostgreSQL busy. */
const LANES = 2;
/** Keys in one statement at most: its arrays and its answer stay small; more wait for the next lane. */
const MAX_GROUP = 32;
