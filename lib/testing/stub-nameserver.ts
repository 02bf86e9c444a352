import dgram from "node:dgram";
import net from "node:net";
import ipaddr from "ipaddr.js";

// A nameserver on 127.0.0.1 (UDP, RFC 1035 wire format) for issue 22.3: it
// answers A and AAAA questions from a table, or, `silent`, never answers at
// all, as a dead or hostile nameserver. Point the product at it with
// DNS_SERVERS=<server>. It records every question it receives.

export interface StubNameserver {
  /** "127.0.0.1:<port>", the value for DNS_SERVERS. */
  server: string;
  /** Questions received, e.g. { name: "hooks.example.test", type: "A" }. */
  questions: { name: string; type: string }[];
  /** Name (lower case) → addresses, IPv4 and IPv6 mixed; A questions get the IPv4 ones, AAAA the IPv6 ones. Unknown names: NXDOMAIN. */
  records: Record<string, string[]>;
  silent: boolean;
  close(): Promise<void>;
}

const TYPES: Record<number, string> = { 1: "A", 28: "AAAA" };

export async function startStubNameserver(opts: { records?: Record<string, string[]>; silent?: boolean } = {}): Promise<StubNameserver> {
  const socket = dgram.createSocket("udp4");
  const stub: StubNameserver = {
    server: "",
    questions: [],
    records: opts.records ?? {},
    silent: opts.silent ?? false,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
  socket.on("message", (query, peer) => {
    const question = readQuestion(query);
    if (!question) return;
    stub.questions.push({ name: question.name, type: TYPES[question.type] ?? String(question.type) });
    if (stub.silent) return;
    const known = stub.records[question.name];
    const family = question.type === 1 ? 4 : question.type === 28 ? 6 : 0;
    const addresses = (known ?? []).filter((a) => net.isIP(a) === family);
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // the query's id
    header.writeUInt16BE(known ? 0x8180 : 0x8183, 2); // response, recursion available; NOERROR or NXDOMAIN
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(addresses.length, 6);
    const answers = addresses.map((a) => {
      const rdata = Buffer.from(ipaddr.parse(a).toByteArray());
      const rr = Buffer.alloc(12);
      rr.writeUInt16BE(0xc00c, 0); // name: pointer to the question's
      rr.writeUInt16BE(question.type, 2);
      rr.writeUInt16BE(1, 4); // class IN
      rr.writeUInt32BE(60, 6); // TTL
      rr.writeUInt16BE(rdata.length, 10);
      return Buffer.concat([rr, rdata]);
    });
    socket.send(Buffer.concat([header, query.subarray(12, question.end), ...answers]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  stub.server = `127.0.0.1:${socket.address().port}`;
  return stub;
}

/** The first question of a query: its name, type, and where it ends. */
function readQuestion(msg: Buffer): { name: string; type: number; end: number } | null {
  if (msg.length < 12 || msg.readUInt16BE(4) < 1) return null;
  const labels: string[] = [];
  let at = 12;
  while (at < msg.length && msg[at] !== 0) {
    const len = msg[at];
    if (len > 63) return null; // no compression in a question we accept
    labels.push(msg.toString("latin1", at + 1, at + 1 + len));
    at += 1 + len;
  }
  if (at + 5 > msg.length) return null;
  return { name: labels.join(".").toLowerCase(), type: msg.readUInt16BE(at + 1), end: at + 5 };
}
