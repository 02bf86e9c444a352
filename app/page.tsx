import { PROFILE_PREFIXES } from "@/lib/protocol/profiles";

/**
 * The site's front door (issue 35.3): where each audience goes. Both
 * languages side by side, as the visitor has chosen none yet.
 */
export default function Home() {
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", padding: 32, maxWidth: 640, margin: "0 auto", lineHeight: 1.5 }}>
      <h1>Card Key Supplier · 卡密供货平台</h1>
      <ul data-testid="front-door" style={{ fontSize: 18, paddingLeft: 20 }}>
        <li>
          <a href="/portal">采购商门户 · Buyer portal</a>
        </li>
        <li>
          <a href="/admin">管理后台 · Admin console</a>
        </li>
        <li>
          <a href="/docs">接口文档 · API reference</a>
        </li>
      </ul>
      <p style={{ color: "#59636e" }}>
        Supplier API · 供货接口: <code>{PROFILE_PREFIXES.U[0]}</code>, <code>{PROFILE_PREFIXES.P[0]}</code>
      </p>
    </main>
  );
}
