import { defineConfig } from "vitest/config";
import path from "node:path";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["lib/**/*.test.ts", "scripts/**/*.test.ts", "app/**/*.test.ts"],
    globalSetup: ["lib/testing/global-setup.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    env: {
      NODE_ENV: "test",
      // A fixed key for tests only, so the test process and the servers it
      // starts read each other's ciphertext.
      SECRET_KEY: "test-secret-key-not-for-production-000000",
      NEXTAUTH_SECRET: "test-nextauth-secret-000000000000000000",
    },
  },
});
