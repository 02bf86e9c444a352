"use client";

import { useState } from "react";

export function CopyButton({ value, label, copiedLabel }: { value: string; label: string; copiedLabel: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="btn"
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
