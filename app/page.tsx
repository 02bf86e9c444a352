export default function Home() {
  return (
    <main style={{ fontFamily: "system-ui", padding: 32 }}>
      <h1>Card Key Supplier</h1>
      <p>Supplier API under <code>/api/v1/upstream</code> and <code>/api/v1/provider</code>. See docs/protocol.md.</p>
    </main>
  );
}
