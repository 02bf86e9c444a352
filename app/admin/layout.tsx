import type { ReactNode } from "react";
import { getI18n } from "@/lib/i18n/server";
import "./admin.css";

export const dynamic = "force-dynamic";

export async function generateMetadata() {
  const { t } = await getI18n();
  return { title: t("app.title"), robots: { index: false, follow: false } };
}

export default async function AdminRootLayout({ children }: { children: ReactNode }) {
  const { locale } = await getI18n();
  return (
    <div className="admin" lang={locale}>
      {children}
    </div>
  );
}
