// Daily volume for the last 30 days (deposits, withdrawals, entry fees), drawn by uPlot; it
// follows its container's width so it fits a phone.
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { DailyVolume } from "@common/api/console";

const HEIGHT = 220;
const SERIES = [
  { key: "deposits", label: "Deposits", stroke: "#16a34a" },
  { key: "withdrawals", label: "Withdrawals", stroke: "#dc2626" },
  { key: "entryFees", label: "Entry fees", stroke: "#2563eb" },
] as const;

export function VolumeChart({ daily }: { daily: DailyVolume[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const data: uPlot.AlignedData = [
      daily.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000),
      ...SERIES.map((s) => daily.map((d) => d[s.key])),
    ];
    const plot = new uPlot(
      {
        width: el.clientWidth || 320,
        height: HEIGHT,
        series: [
          {},
          ...SERIES.map((s) => ({
            label: s.label,
            stroke: s.stroke,
            width: 2,
            value: (_: uPlot, v: number | null) => (v === null ? "" : `$${v.toFixed(2)}`),
          })),
        ],
        axes: [{}, { values: (_: uPlot, ticks: number[]) => ticks.map((t) => `$${t}`) }],
      },
      data,
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [daily]);
  return (
    <div
      ref={box}
      className="w-full overflow-hidden"
      role="img"
      aria-label="Daily volume, last 30 days: deposits, withdrawals and entry fees"
    />
  );
}
