import type { ReactNode } from "react";

export const metadata = { title: "Card Key Supplier" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
