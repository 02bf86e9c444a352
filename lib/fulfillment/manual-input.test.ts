import { describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "../audit/actor";
import { AppError } from "../errors";
import { deliverOrder, DeliveryPayloadSchema } from "./deliver-order";
import { failOrder, FailReasonSchema } from "./fail-order";

// Issue 9.3: the console's deliver/fail actions and the CLI import these
// schemas; the services check with the very same ones, so the three can never
// disagree on what a reason or a payload is. Bad input is refused before any
// database access, so no database is needed here.

async function refusal(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe("bad_request");
  return (err as AppError).publicMessage;
}

describe("manual fulfillment input, one rule each (issue 9.3)", () => {
  it("issue 9.3: a fail reason is 1–200 characters after trimming, in the schema and in failOrder alike", async () => {
    for (const reason of ["", "   ", "x".repeat(201), ` ${"y".repeat(201)} `]) {
      const schema = FailReasonSchema.safeParse(reason);
      expect(schema.success, JSON.stringify(reason)).toBe(false);
      expect(await refusal(failOrder({ orderNo: "SK-NONE", reason, actor: SYSTEM_ACTOR }))).toBe(
        `reason ${schema.error!.issues[0].message}`,
      );
    }
    expect(FailReasonSchema.parse(` ${"z".repeat(200)} `)).toBe("z".repeat(200));
  });

  it("issue 9.3 (D21): a delivery payload needs a non-empty line and at most a million characters, in the schema and in deliverOrder alike", async () => {
    for (const payloadText of ["", " \n\r\n\t", "x".repeat(1_000_001)]) {
      const schema = DeliveryPayloadSchema.safeParse(payloadText);
      expect(schema.success).toBe(false);
      expect(schema.error!.issues).toHaveLength(1);
      expect(await refusal(deliverOrder({ orderNo: "SK-NONE", payloadText, actor: SYSTEM_ACTOR }))).toBe(
        `payload ${schema.error!.issues[0].message}`,
      );
    }
    expect(DeliveryPayloadSchema.parse("A\nB")).toBe("A\nB");
  });
});
