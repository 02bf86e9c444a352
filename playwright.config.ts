import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// The e2e suite drives Debian's Chromium (never a downloaded browser) against
// the real built app started by `npm start` on a scratch DATA_DIR (its own
// embedded PostgreSQL, seeded with the demo catalogue and the first admin).
// The scratch directory is chosen once and inherited by the worker processes.
const port = Number(process.env.E2E_PORT ?? 3217);
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "cardkey-e2e-"));
process.env.E2E_ADMIN_EMAIL ??= "e2e-admin@example.com";
process.env.E2E_ADMIN_PASSWORD ??= "e2e-admin-password-123";
process.env.E2E_BASE_URL = `http://localhost:${port}`;

export default defineConfig({
  testDir: "e2e",
  testMatch: "*.spec.ts",
  fullyParallel: false,
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: process.env.E2E_BASE_URL,
    locale: "en-US",
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  webServer: {
    command: "npm start",
    url: `${process.env.E2E_BASE_URL}/api/health`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    env: {
      PORT: String(port),
      DATA_DIR: process.env.E2E_DATA_DIR,
      ADMIN_EMAIL: process.env.E2E_ADMIN_EMAIL,
      ADMIN_PASSWORD: process.env.E2E_ADMIN_PASSWORD,
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
      // The in-server job worker would try to deliver callbacks; none are used here.
      WORKER_IN_SERVER: "false",
      // The fake Bot API and SMTP server of e2e/alerts.spec.ts are on loopback (D29, issue 33.2).
      CALLBACK_ALLOW_PRIVATE_NETWORKS: "true",
      // No balancer in front: the stop drains at once, well within gracefulShutdown's 10 s (decision 0040).
      SHUTDOWN_DELAY_MS: "0",
    },
  },
});
