"use client";

import { usePathname, useSearchParams } from "next/navigation";

const NAMES = { "zh-CN": "中文", en: "English" } as const;

/** Links to <base>/locale (/admin or /portal), which sets the cookie and comes back to this page. */
export function LanguageSwitch({ current, label, base = "/admin" }: { current: string; label: string; base?: "/admin" | "/portal" }) {
  const pathname = usePathname();
  const params = useSearchParams();
  const back = params.size ? `${pathname}?${params.toString()}` : pathname;
  return (
    <nav className="admin-lang" aria-label={label}>
      {(Object.keys(NAMES) as (keyof typeof NAMES)[]).map((code) => (
        <a
          key={code}
          href={`${base}/locale?to=${code}&back=${encodeURIComponent(back)}`}
          aria-current={code === current ? "true" : undefined}
          hrefLang={code}
        >
          {NAMES[code]}
        </a>
      ))}
    </nav>
  );
}
