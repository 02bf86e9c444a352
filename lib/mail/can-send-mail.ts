import { db } from "../db/client";
import { channelProblem } from "../alerts/channel-problem";

/**
 * Issue 35.4: whether the site can send an e-mail at all, by the rule
 * sendMail follows (an e-mail alert channel whose stored settings our rules
 * accept). Pages ask before they promise a mail: the console warns its
 * operator, the portal tells a buyer to contact the supplier instead of "a
 * link is on its way".
 */
export async function canSendMail(): Promise<boolean> {
  const channels = await db().alertChannel.findMany({ where: { kind: "email", deletedAt: null } });
  return channels.some((c) => channelProblem(c) === null);
}
