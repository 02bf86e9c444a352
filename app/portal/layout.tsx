import type { ReactNode } from "react";
import { LocaleRoot, privateSiteMetadata } from "@/components/locale-root";
import "../admin/admin.css";

export const dynamic = "force-dynamic";

export async function generateMetadata() {
  return privateSiteMetadata("portal.title");
}

/** The portal shares the console's stylesheet and shell classes; its pages and session are its own. */
export default function PortalRootLayout({ children }: { children: ReactNode }) {
  return <LocaleRoot>{children}</LocaleRoot>;
}
