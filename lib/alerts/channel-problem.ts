import { decryptText } from "../crypto/secret-box";
import type { AlertChannel } from "../generated/prisma/client";
import type { ChannelSecret } from "./channel-store";
import { DEFAULT_TELEGRAM_API } from "./channels/telegram";
import { telegramApiBaseProblem } from "./channels/telegram-api-base";
import { smtpUrlProblem } from "./smtp-url";

/**
 * Issue 33.1: why a stored channel cannot be used as it stands, or null. A
 * channel an older version stored (an SMTP URL with a `sendmail` parameter,
 * an http API base) is refused by the senders before every send
 * (channels/email.ts, channels/telegram.ts); this is the same rule read for
 * the console and the dashboard, so such a channel shows as failing, with the
 * reason, before anything is sent through it. No network: the address policy
 * is applied when connecting.
 */
export function channelProblem(channel: Pick<AlertChannel, "kind" | "config" | "secretCiphertext">): string | null {
  let secret: ChannelSecret;
  try {
    secret = JSON.parse(decryptText(channel.secretCiphertext)) as ChannelSecret;
  } catch {
    return "the channel's secret cannot be opened (SECRET_KEY changed?)";
  }
  if (channel.kind === "email") return smtpUrlProblem(secret.smtpUrl ?? "");
  if (channel.kind === "telegram") {
    const problem = telegramApiBaseProblem(String((channel.config as { apiBase?: string }).apiBase || DEFAULT_TELEGRAM_API));
    return problem && `Telegram: ${problem}`;
  }
  return null;
}
