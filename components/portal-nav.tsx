"use client";

import { SideNav, type NavItem } from "./side-nav";

/** The portal's navigation; sign-out is a plain POST form. */
export function PortalNav({ items, menuLabel, signOutLabel }: { items: NavItem[]; menuLabel: string; signOutLabel: string }) {
  return (
    <SideNav
      items={items}
      home="/portal"
      menuLabel={menuLabel}
      signOut={
        <form method="post" action="/portal/sign-out">
          <button type="submit" className="btn">
            {signOutLabel}
          </button>
        </form>
      }
    />
  );
}
