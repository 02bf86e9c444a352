"use client";

import type { ReactNode } from "react";
import Link from "next/link";
import { usePathname } from "next/navigation";

export interface NavItem {
  href: string;
  label: string;
}

/**
 * The console's and the portal's side navigation. On a phone it folds into a
 * <details> "Menu" (no JS needed to open it); from 900px it is a fixed sidebar
 * (see admin.css). `home` is marked current on itself only; any other item
 * also on the pages below it. `signOut` is the last entry (each side signs out
 * its own way).
 */
export function SideNav({ items, home, menuLabel, signOut }: { items: NavItem[]; home: string; menuLabel: string; signOut: ReactNode }) {
  const pathname = usePathname();
  const active = (href: string) => (href === home ? pathname === home : pathname === href || pathname.startsWith(href + "/"));
  const list = (
    <ul>
      {items.map((i) => (
        <li key={i.href}>
          <Link href={i.href} aria-current={active(i.href) ? "page" : undefined}>
            {i.label}
          </Link>
        </li>
      ))}
      <li>{signOut}</li>
    </ul>
  );
  return (
    <div className="admin-nav">
      <details open={false}>
        <summary aria-label={menuLabel}>☰ {menuLabel}</summary>
        {list}
      </details>
      <div className="admin-nav-wide">{list}</div>
    </div>
  );
}
