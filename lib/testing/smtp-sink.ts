import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { addAlertChannel } from "../alerts/add-channel";
import { SYSTEM_ACTOR } from "../audit/actor";

// A real SMTP server in this process (issue 25, the smtp-server package) on
// 127.0.0.1: accepts one user and password, records every message as the
// raw text it received, can refuse for a while (a mail server outage).

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpSink {
  port: number;
  /** smtp://user:password@127.0.0.1:<port> (plain, no TLS: loopback only). */
  url: string;
  user: string;
  password: string;
  mails: ReceivedMail[];
  /** While > 0, each message is refused with 451 and this counts down. */
  failNext: number;
  close(): Promise<void>;
}

export async function startSmtpSink(user = "alerts", password = "smtp-pass-S3cret"): Promise<SmtpSink> {
  const sink: SmtpSink = { port: 0, url: "", user, password, mails: [], failNext: 0, close: () => Promise.resolve() };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authOptional: false,
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === user && auth.password === password) return cb(null, { user });
      cb(new Error("Invalid username or password"));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (sink.failNext > 0) {
          sink.failNext--;
          const err = new Error("Try again later") as Error & { responseCode: number };
          err.responseCode = 451;
          return cb(err);
        }
        sink.mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  sink.port = (server.server.address() as AddressInfo).port;
  sink.url = `smtp://${user}:${password}@127.0.0.1:${sink.port}`;
  sink.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return sink;
}

/** The text part of a received mail, decoded (nodemailer writes quoted-printable or base64). */
export function mailText(raw: string): string {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join("\n\n");
  if (/content-transfer-encoding:\s*base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
    const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  return body;
}

/** The site's mail goes through its first e-mail channel: one sending to this sink (remove it after the test). */
export async function addSiteMailChannel(smtp: SmtpSink): Promise<{ id: number }> {
  return addAlertChannel(
    { kind: "email", name: "site mail", smtpUrl: smtp.url, from: "shop@example.test", to: ["ops@example.test"] },
    { actor: SYSTEM_ACTOR },
  );
}
