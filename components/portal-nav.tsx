"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { NavItem } from "./admin-nav";

/** The portal's navigation (as AdminNav: a <details> menu on a phone, a sidebar from 900px); sign-out is a plain POST form. */
export function PortalNav({ items, menuLabel, signOutLabel }: { items: NavItem[]; menuLabel: string; signOutLabel: string }) {
  const pathname = usePathname();
  const active = (href: string) => (href === "/portal" ? pathname === "/portal" : pathname === href || pathname.startsWith(href + "/"));
  const list = (
    <ul>
      {items.map((i) => (
        <li key={i.href}>
          <Link href={i.href} aria-current={active(i.href) ? "page" : undefined}>
            {i.label}
          </Link>
        </li>
      ))}
      <li>
        <form method="post" action="/portal/sign-out">
          <button type="submit" className="btn">
            {signOutLabel}
          </button>
        </form>
      </li>
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
