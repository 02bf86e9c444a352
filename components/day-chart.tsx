/**
 * Orders (bars) and sales (line) per day as a plain SVG: no chart library.
 * It scales to its container through the viewBox, so it never overflows a
 * phone screen. Each bar carries a <title> with the exact numbers.
 */
export function DayChart({
  data,
  labels,
}: {
  data: { day: string; orders: number; sales: string; salesValue: number }[];
  labels: { title: string; orders: string; sales: string; ordersLegend: (max: number) => string };
}) {
  const W = 700,
    H = 220,
    left = 34,
    right = 10,
    top = 12,
    bottom = 28;
  const plotW = W - left - right,
    plotH = H - top - bottom;
  const maxOrders = Math.max(1, ...data.map((d) => d.orders));
  const maxSales = Math.max(1, ...data.map((d) => d.salesValue));
  const step = plotW / Math.max(1, data.length);
  const barW = Math.max(4, step * 0.6);
  const y = (v: number, max: number) => top + plotH - (v / max) * plotH;
  const line = data.map((d, i) => `${(left + step * i + step / 2).toFixed(1)},${y(d.salesValue, maxSales).toFixed(1)}`).join(" ");
  return (
    <figure className="day-chart" data-testid="day-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={labels.title} preserveAspectRatio="xMidYMid meet">
        <line x1={left} y1={top + plotH} x2={W - right} y2={top + plotH} stroke="#d1d9e0" />
        <text x={left - 6} y={top + 4} textAnchor="end" fontSize="11" fill="#59636e">
          {maxOrders}
        </text>
        <text x={left - 6} y={top + plotH} textAnchor="end" fontSize="11" fill="#59636e">
          0
        </text>
        {data.map((d, i) => {
          const x = left + step * i + (step - barW) / 2;
          const yTop = y(d.orders, maxOrders);
          return (
            <g key={d.day}>
              <rect x={x} y={yTop} width={barW} height={top + plotH - yTop} fill="#0969da" opacity="0.75">
                <title>{`${d.day}: ${labels.orders} ${d.orders}, ${labels.sales} ${d.sales}`}</title>
              </rect>
              {i % 2 === data.length % 2 ? null : (
                <text x={left + step * i + step / 2} y={H - 10} textAnchor="middle" fontSize="11" fill="#59636e">
                  {d.day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
        <polyline points={line} fill="none" stroke="#1a7f37" strokeWidth="2" />
      </svg>
      <figcaption className="chart-legend">
        <span>
          <i style={{ background: "#0969da" }} /> {labels.ordersLegend(maxOrders)}
        </span>
        <span>
          <i style={{ background: "#1a7f37" }} /> {labels.sales}
        </span>
      </figcaption>
    </figure>
  );
}
