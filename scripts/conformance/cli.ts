import { parseArgs } from "node:util";
import { secretFromFile, withSecret } from "../cli/read-secret";
import { formatResult, runConformance } from "./run";

// npm run conformance -- --base-url URL --api-key K (--api-secret-file F | --api-secret S) --profile U|P
//                        [--allow-orders --sku-id N] [--json]
// One line per check, then "N passed, M failed"; exit 1 when anything failed,
// 2 on bad arguments. Read-only unless --allow-orders.

const USAGE =
  "usage: npm run conformance -- --base-url URL --api-key K (--api-secret-file F | --api-secret S) --profile U|P [--allow-orders --sku-id N] [--json]";

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

let values;
let apiSecret: unknown;
try {
  ({ values } = parseArgs({
    options: {
      "base-url": { type: "string" },
      "api-key": { type: "string" },
      "api-secret": { type: "string" },
      ...secretFromFile("api-secret"),
      profile: { type: "string" },
      "allow-orders": { type: "boolean", default: false },
      "sku-id": { type: "string" },
      json: { type: "boolean", default: false },
    },
    strict: true,
  }));
  // Issue 22.8: the secret from a file keeps it out of `ps` and shell history.
  apiSecret = withSecret(values, "api-secret")["api-secret"];
} catch (err) {
  fail((err as Error).message);
}
const baseUrl = values["base-url"];
const apiKey = values["api-key"];
const profile = values.profile;
if (!baseUrl || !/^https?:\/\//.test(baseUrl)) fail("--base-url must be an http(s) URL");
if (!apiKey || typeof apiSecret !== "string") fail("--api-key and --api-secret (or --api-secret-file) are required");
if (profile !== "U" && profile !== "P") fail("--profile must be U or P");
const skuId = values["sku-id"] === undefined ? undefined : Number(values["sku-id"]);
if (skuId !== undefined && !(Number.isInteger(skuId) && skuId > 0)) fail("--sku-id must be a positive integer");
if (values["allow-orders"] && !skuId) fail("--allow-orders needs --sku-id");

const json = values.json;
const report = await runConformance(
  { baseUrl, apiKey, apiSecret, profile, allowOrders: values["allow-orders"], skuId },
  json ? undefined : (r) => process.stdout.write(formatResult(r) + "\n"),
);
if (json) process.stdout.write(JSON.stringify(report, null, 2) + "\n");
else process.stdout.write(`${report.passed} passed, ${report.failed} failed\n`);
process.exit(report.failed > 0 ? 1 : 0);
