import type { ReactNode } from "react";
import { LocaleRoot, privateSiteMetadata } from "@/components/locale-root";
import "./admin.css";

export const dynamic = "force-dynamic";

export async function generateMetadata() {
  return privateSiteMetadata("app.title");
}

export default function AdminRootLayout({ children }: { children: ReactNode }) {
  return <LocaleRoot>{children}</LocaleRoot>;
}
