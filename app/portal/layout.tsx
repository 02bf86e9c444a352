import type { ReactNode } from "react";
import { getI18n } from "@/lib/i18n/server";
import "../admin/admin.css";

export const dynamic = "force-dynamic";

export async function generateMetadata() {
  const { t } = await getI18n();
  return { title: t("portal.title"), robots: { index: false, follow: false } };
}

/** The portal shares the console's stylesheet and shell classes; its pages and session are its own. */
export default async function PortalRootLayout({ children }: { children: ReactNode }) {
  const { locale } = await getI18n();
  return (
    <div className="admin" lang={locale}>
      {children}
    </div>
  );
}
