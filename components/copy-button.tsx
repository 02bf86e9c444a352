"use client";

import { useState } from "react";

/** Copies `value`; `name` is the button's accessible name when several copy buttons share a page (a table's rows). */
export function CopyButton({
  value,
  label,
  copiedLabel,
  name,
  small = false,
}: {
  value: string;
  label: string;
  copiedLabel: string;
  name?: string;
  small?: boolean;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className={small ? "btn btn-small" : "btn"}
      aria-label={name}
      onClick={() => {
        navigator.clipboard.writeText(value).then(
          () => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          },
          // Clipboard refused (http, permissions): the value stays selectable on screen.
          () => undefined,
        );
      }}
    >
      {copied ? copiedLabel : label}
    </button>
  );
}
