// Server-rendered SVG charts: they print and cost a slow connection nothing.

export function Sparkline({ values, color = "#28C76F", height = 40 }: { values: string[]; color?: string; height?: number }) {
  const nums = values.map(Number);
  const max = Math.max(1, ...nums);
  const w = 120;
  const step = nums.length > 1 ? w / (nums.length - 1) : w;
  const pts = nums.map((v, i) => `${(i * step).toFixed(1)},${(height - (v / max) * (height - 4) - 2).toFixed(1)}`);
  return (
    <svg viewBox={`0 0 ${w} ${height}`} className="h-10 w-full" preserveAspectRatio="none" aria-hidden="true">
      <polygon points={`0,${height} ${pts.join(" ")} ${w},${height}`} fill={color} fillOpacity="0.15" />
      <polyline points={pts.join(" ")} fill="none" stroke={color} strokeWidth="1.5" />
    </svg>
  );
}

export function Bars({ data }: { data: { label: string; a: string; b: string }[] }) {
  const max = Math.max(1, ...data.flatMap((d) => [Number(d.a), Number(d.b)]));
  const h = 120;
  const bw = 14;
  return (
    <svg viewBox={`0 0 ${data.length * 50} ${h + 20}`} className="w-full" role="img" aria-label="Ingresos vs Gastos">
      {data.map((d, i) => {
        const ha = (Number(d.a) / max) * h;
        const hb = (Number(d.b) / max) * h;
        const x = i * 50 + 8;
        return (
          <g key={d.label}>
            <rect x={x} y={h - ha} width={bw} height={ha} fill="#28C76F" />
            <rect x={x + bw + 2} y={h - hb} width={bw} height={hb} fill="#EA5455" />
            <text x={x + bw} y={h + 14} fontSize="10" textAnchor="middle" fill="#64748b">
              {d.label}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
