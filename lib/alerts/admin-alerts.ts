import crypto from "node:crypto";
import { db } from "../db/client";
import { enqueueAlert } from "./enqueue-alert";

// Issue 25: sign-in events worth telling the operators. Only for e-mails
// that name an administrator: guesses at unknown e-mails stay in the audit
// log, so nobody outside can fill the operators' phones.

/** The sign-in throttle just locked this administrator out (once per lock-out: the counter's crossing). */
export async function alertAdminLocked({ email, ip }: { email: string; ip: string }): Promise<void> {
  const admin = await db().adminUser.findUnique({ where: { email }, select: { id: true, email: true } });
  if (!admin) return;
  const minute = Math.floor(Date.now() / 60_000);
  await db().$transaction((tx) =>
    enqueueAlert(tx, { kind: "admin_locked", dedupeKey: `admin_locked:${admin.id}:${ip}:${minute}`, params: { email: admin.email, ip } }),
  );
}

/** An administrator signed in from a browser without this account's device cookie. */
export async function alertAdminNewDevice({ adminId, email, ip }: { adminId: number; email: string; ip: string }): Promise<void> {
  await db().$transaction((tx) =>
    enqueueAlert(tx, { kind: "admin_new_device", dedupeKey: `admin_new_device:${adminId}:${crypto.randomUUID()}`, params: { email, ip } }),
  );
}
