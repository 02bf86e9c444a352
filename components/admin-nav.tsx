"use client";

import { signOut } from "next-auth/react";
import { SideNav, type NavItem } from "./side-nav";

/** The console's navigation; signing out goes through next-auth, then to the sign-in page. */
export function AdminNav({ items, menuLabel, signOutLabel }: { items: NavItem[]; menuLabel: string; signOutLabel: string }) {
  return (
    <SideNav
      items={items}
      home="/admin"
      menuLabel={menuLabel}
      signOut={
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
      }
    />
  );
}
