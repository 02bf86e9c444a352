import { expect } from "vitest";

// vitest's asymmetric matchers return `any` by design (they stand in for any
// value of a compared object). These name the value they stand for, so a test
// compares a declared shape and no `any` spreads from it (decision 0085).

/** expect.any(String): any string in this place. */
export const anyString = (): string => expect.any(String) as string;

/** expect.any(Number): any number in this place. */
export const anyNumber = (): number => expect.any(Number) as number;

/** expect.any(Array): any array in this place. */
export const anyArray = (): unknown[] => expect.any(Array) as unknown[];

/** expect.any(Date): any Date in this place. */
export const anyDate = (): Date => expect.any(Date) as Date;

/** expect.stringMatching(pattern): a string matching it in this place. */
export const stringMatching = (pattern: string | RegExp): string => expect.stringMatching(pattern) as string;

/** expect.stringContaining(text): a string containing it in this place. */
export const stringContaining = (text: string): string => expect.stringContaining(text) as string;
