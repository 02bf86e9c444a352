// @ts-check
// ESLint 10 flat config (issues 23, 34): ESLint's recommended rules and
// typescript-eslint's type-checked recommended rules: no `any` leaks through
// a JSON read or a library boundary unnoticed, and a server with jobs, timers
// and streams must not drop a rejected promise. Formatting is Prettier's
// (.prettierrc), not ESLint's.
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
  tseslint.configs.recommendedTypeChecked,
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
      // Passing on what a catch caught (unknown) is not making a non-Error.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingUnknown: true }],
      // `_name` marks what is dropped on purpose (a field left out of a copy).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      // An error: JSON answers are read through a declared type (tests use
      // json<T>() and runCli<T>() from lib/testing) and untyped libraries get a narrow
      // declared type; the few `eslint-disable-next-line` left name their reason.
      "@typescript-eslint/no-explicit-any": "error",
    },
  },
  {
    // Plain JavaScript config and launcher files are outside the TypeScript
    // project: no type information, so no type-checked rules.
    files: ["**/*.mjs"],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
  },
);
