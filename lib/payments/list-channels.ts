import { db } from "../db/client";
import { channelView } from "./add-channel";

/** Every channel, newest first, for operators (secrets left out). */
export async function listChannels() {
  const rows = await db().paymentChannel.findMany({ orderBy: { id: "desc" } });
  return rows.map(channelView);
}

/** The channels a buyer may pay through: enabled, with their limits. */
export async function listOpenChannels() {
  const rows = await db().paymentChannel.findMany({
    where: { enabled: true },
    orderBy: { id: "asc" },
    select: { id: true, name: true, driver: true, minCents: true, maxCents: true },
  });
  return rows;
}
