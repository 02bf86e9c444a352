import { db } from "../db/client";

/** True when the database answers a trivial query within `timeoutMs`. */
export async function checkDatabase(timeoutMs = 2000): Promise<boolean> {
  const query = db().$queryRaw`SELECT 1`.then(
    () => true,
    () => false,
  );
  const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs).unref());
  return Promise.race([query, timeout]);
}
