import { describe, expect, it } from "vitest";
import { DRIVER_NAMES, NotifyRefusedError, type DriverName, type GatewayChannel, type NotifyRequest, type PaymentDriver } from "./driver";
import { epayDriver } from "./epay";
import { epusdtDriver } from "./epusdt";
import { quoteJsonNumbers, readJsonFields, sameSignature } from "./signing";
import { stripeDriver } from "./stripe";
import { tokenpayDriver } from "./tokenpay";

// index.ts (DRIVERS, driverFor) is not imported here: the structure test
// refuses a module outside lib/testing that only tests import, and the core
// is its importer. Its Record<DriverName, PaymentDriver> type already asks for
// one driver per name; this file checks each driver answers to its own name.
const DRIVERS: Record<DriverName, PaymentDriver> = {
  epay: epayDriver,
  tokenpay: tokenpayDriver,
  epusdt: epusdtDriver,
  stripe: stripeDriver,
};

const channel = (driver: GatewayChannel["driver"]): GatewayChannel => ({
  id: 9,
  driver,
  gatewayUrl: "http://127.0.0.1:9",
  merchantId: "1001",
  key: "k",
  webhookSecret: "whsec_x",
  apiBase: "http://127.0.0.1:9",
  currency: "CNY",
});

const post = (body: string | Buffer, headers: Record<string, string> = {}): NotifyRequest => ({
  method: "POST",
  query: new URLSearchParams(),
  headers: new Headers(headers),
  rawBody: Buffer.isBuffer(body) ? body : Buffer.from(body),
});

const HOSTILE = [
  "",
  "not json",
  "[]",
  "null",
  "1e999999",
  '"a string"',
  '{"Status":1e999999,"status":123456789012345678901234567890}',
  '{"a":{"b":1}}',
  '{"a":[1,2]}',
  '{"__proto__":{"x":1}}',
  '{"__proto__":"x","constructor":"y","sign":"z","Signature":"z","signature":"z"}',
  '{"Signature":["a"],"signature":{"x":1}}',
  "{".repeat(10_000),
  "pid=1001&sign=&sign_type=MD5",
  "sign[]=1&pid[]=1001",
  "\u0000\uffff",
];

describe("the four drivers", () => {
  it("each answers to its own name", () => {
    for (const name of DRIVER_NAMES) expect(DRIVERS[name].name).toBe(name);
  });

  it("each answers the reply its gateway expects", () => {
    expect(DRIVERS.epay.successReply).toBe("success");
    expect(DRIVERS.tokenpay.successReply).toBe("ok");
    expect(DRIVERS.epusdt.successReply).toBe("ok");
  });

  it.each(DRIVER_NAMES)("%s: a hostile notify body is a NotifyRefusedError, never anything else", (name) => {
    for (const body of [...HOSTILE, Buffer.from([0xff, 0xfe, 0x00, 0x80])]) {
      const requests = [post(body), post(body, { "content-type": "application/json", "stripe-signature": "t=1,v1=00" })];
      for (const r of requests) expect(() => DRIVERS[name].verify(channel(name), r), String(body).slice(0, 60)).toThrow(NotifyRefusedError);
    }
  });

  it("epay: a GET notify with nothing, or only garbage, is refused", () => {
    const get = (q: string): NotifyRequest => ({
      method: "GET",
      query: new URLSearchParams(q),
      headers: new Headers(),
      rawBody: Buffer.alloc(0),
    });
    for (const q of ["", "sign=abc", "a=1&a=2", "pid=1001&money=1e999&sign=" + "0".repeat(32)]) {
      expect(() => DRIVERS.epay.verify(channel("epay"), get(q))).toThrow(NotifyRefusedError);
    }
  });
});

describe("signing helpers", () => {
  it("quoteJsonNumbers keeps each number's digits and leaves strings alone", () => {
    expect(JSON.parse(quoteJsonNumbers('{"a":10.00,"b":-1e3,"c":"x 1.0 \\" 2","d":[0,12345678901234567890]}'))).toEqual({
      a: "10.00",
      b: "-1e3",
      c: 'x 1.0 " 2',
      d: ["0", "12345678901234567890"],
    });
    expect(() => quoteJsonNumbers('{"a":1.2.3}')).toThrow(SyntaxError);
    expect(() => quoteJsonNumbers('{"a":--1}')).toThrow(SyntaxError);
  });

  it("readJsonFields: booleans as text, null as empty", () => {
    expect(readJsonFields(Buffer.from('{"a":true,"b":null,"c":7}'))).toEqual({ a: "true", b: "", c: "7" });
  });

  it("sameSignature is exact: case, length and absence all differ", () => {
    expect(sameSignature("abc0", "abc0")).toBe(true);
    expect(sameSignature("abc0", "ABC0")).toBe(false);
    expect(sameSignature("abc0", "abc")).toBe(false);
    expect(sameSignature("abc0", undefined)).toBe(false);
    expect(sameSignature("abc0", "")).toBe(false);
  });
});
