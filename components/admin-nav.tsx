"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { signOut } from "next-auth/react";

export interface NavItem {
  href: string;
  label: string;
}

/**
 * Side navigation. On a phone it folds into a <details> "Menu" (no JS needed
 * to open it); from 900px it is a fixed sidebar (see admin.css).
 */
export function AdminNav({ items, menuLabel, signOutLabel }: { items: NavItem[]; menuLabel: string; signOutLabel: string }) {
  const pathname = usePathname();
  const active = (href: string) => (href === "/admin" ? pathname === "/admin" : pathname === href || pathname.startsWith(href + "/"));
  return (
    <div className="admin-nav">
      <details open={false}>
        <summary aria-label={menuLabel}>☰ {menuLabel}</summary>
        <NavList items={items} active={active} signOutLabel={signOutLabel} />
      </details>
      <div className="admin-nav-wide">
        <NavList items={items} active={active} signOutLabel={signOutLabel} />
      </div>
    </div>
  );
}

function NavList({ items, active, signOutLabel }: { items: NavItem[]; active: (href: string) => boolean; signOutLabel: string }) {
  return (
    <ul>
      {items.map((i) => (
        <li key={i.href}>
          <Link href={i.href} aria-current={active(i.href) ? "page" : undefined}>
            {i.label}
          </Link>
        </li>
      ))}
      <li>
        <a
          href="/admin/sign-in"
          onClick={(e) => {
            e.preventDefault();
            // React does not await a handler; a failed sign-out request leaves the page as it is.
            void signOut({ redirect: false }).then(() => window.location.assign("/admin/sign-in?signedOut=1"));
          }}
        >
          {signOutLabel}
        </a>
      </li>
    </ul>
  );
}
