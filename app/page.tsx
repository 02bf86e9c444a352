import { PROFILE_PREFIXES } from "@/lib/protocol/profiles";

export default function Home() {
  return (
    <main style={{ fontFamily: "system-ui", padding: 32 }}>
      <h1>Card Key Supplier</h1>
      <p>
        Supplier API under <code>{PROFILE_PREFIXES.U[0]}</code> and <code>{PROFILE_PREFIXES.P[0]}</code>. See docs/protocol.md.
      </p>
    </main>
  );
}
