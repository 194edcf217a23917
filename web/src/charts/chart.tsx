import { useEffect, useRef } from 'react';
import uPlot, { type AlignedData, type Options, type Series } from 'uplot';
import 'uplot/dist/uPlot.min.css';

/**
 * A chart drawn by uPlot (canvas, about 20 KB gzipped: the smallest well-kept library that draws a
 * year of days without effort). A canvas says nothing to a screen reader, so the figure carries a
 * summary as its label and every chart has a table of its figures beside it.
 */

export interface ChartSeries {
  label: string;
  values: number[];
  color: string;
  /** Bars (stacked on the bars before them when the chart stacks) or a line. */
  kind: 'bar' | 'line';
  dashed?: boolean;
}

export const PALETTE = [
  '#1f5fa8',
  '#d1730f',
  '#2e8540',
  '#b8336a',
  '#6b4fbb',
  '#0f8a8a',
  '#8a6d0f',
  '#a83232',
];
export const OTHER_COLOR = '#8c8c8c';

export function Chart({
  summary,
  categories,
  series,
  stacked = false,
  unit,
}: {
  summary: string;
  categories: string[];
  series: ChartSeries[];
  stacked?: boolean;
  unit: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    // Stacked bars: each bar is drawn at the sum of it and those before it, the tallest first.
    const running = categories.map(() => 0);
    const drawn = series.map((s) => {
      if (!(stacked && s.kind === 'bar')) return s.values;
      return s.values.map((v, i) => (running[i]! += v));
    });
    const order = series
      .map((_, i) => i)
      .sort((a, b) => drawOrder(series, a) - drawOrder(series, b));
    const bars = uPlot.paths.bars!({ size: [0.7, 64], align: 0 });
    const options: Options = {
      width: element.clientWidth || 600,
      height: 260,
      legend: { show: false },
      cursor: { show: true, points: { show: false } },
      scales: { x: { time: false, range: [-0.5, Math.max(categories.length - 0.5, 0.5)] } },
      axes: [
        {
          values: (_u, ticks) =>
            ticks.map((t) => (Number.isInteger(t) ? (categories[t] ?? '') : '')),
          space: 50,
        },
        { label: unit, size: 56 },
      ],
      series: [
        {},
        ...order.map((i): Series => ({
          label: series[i]!.label,
          stroke: series[i]!.color,
          fill: series[i]!.kind === 'bar' ? series[i]!.color : undefined,
          width: series[i]!.kind === 'bar' ? 0 : 2,
          dash: series[i]!.dashed ? [6, 4] : undefined,
          points: { show: false },
          ...(series[i]!.kind === 'bar' ? { paths: bars } : {}),
        })),
      ],
    };
    const data: AlignedData = [categories.map((_, i) => i), ...order.map((i) => drawn[i]!)];
    const plot = new uPlot(options, data, element);
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: element.clientWidth || 600, height: 260 }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [categories, series, stacked, unit]);

  return (
    <div className="chart">
      <div role="img" aria-label={summary} ref={box} />
      <ul className="legend" aria-hidden="true">
        {series.map((s) => (
          <li key={s.label}>
            <span className="swatch" style={{ background: s.color }} />
            {s.label}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Bars before lines; among stacked bars the last (tallest) first, so each shows above the next. */
function drawOrder(series: ChartSeries[], i: number): number {
  return series[i]!.kind === 'bar' ? series.length - i : series.length + i;
}
