/**
 * A one-line chart of response times: points are gathered into at most `width` columns, each
 * column shows the highest value in it (a slow test is what an operator looks for) on eight
 * levels between the lowest and highest column, and any failed test marks its column.
 */

export interface ChartPoint {
  value: number | null;
  failed: boolean;
}

export interface ChartColumn {
  /** 0 (lowest) to LEVELS - 1 (highest); null when no point of the column has a value. */
  level: number | null;
  /** Highest value of the column. */
  value: number | null;
  failed: boolean;
  points: number;
}

export interface Chart {
  columns: ChartColumn[];
  /** Values of the lowest and highest level; null without any value. */
  low: number | null;
  high: number | null;
}

export const LEVELS = 8;
export const DEFAULT_CHART_WIDTH = 60;

export function buildChart(points: readonly ChartPoint[], width = DEFAULT_CHART_WIDTH): Chart {
  const n = points.length;
  const cols = Math.max(0, Math.min(n, Math.floor(width)));
  const raw: Omit<ChartColumn, 'level'>[] = [];
  for (let i = 0; i < cols; i++) {
    const slice = points.slice(Math.floor((i * n) / cols), Math.floor(((i + 1) * n) / cols));
    const values = slice.map((p) => p.value).filter((v): v is number => v !== null && Number.isFinite(v));
    raw.push({
      value: values.length ? Math.max(...values) : null,
      failed: slice.some((p) => p.failed),
      points: slice.length,
    });
  }
  const present = raw.map((c) => c.value).filter((v): v is number => v !== null);
  const low = present.length ? Math.min(...present) : null;
  const high = present.length ? Math.max(...present) : null;
  const columns = raw.map((c) => ({ ...c, level: levelOf(c.value, low, high) }));
  return { columns, low, high };
}

function levelOf(v: number | null, low: number | null, high: number | null): number | null {
  if (v === null || low === null || high === null) return null;
  // A flat series sits mid-height: neither "all fast" nor "all slow" is implied.
  if (high === low) return Math.floor(LEVELS / 2) - 1;
  return Math.min(LEVELS - 1, Math.max(0, Math.round(((v - low) / (high - low)) * (LEVELS - 1))));
}

export interface DataSummary {
  points: number;
  /** Points with a value. */
  measured: number;
  min: number | null;
  avg: number | null;
  max: number | null;
  failures: number;
}

export function summarize(points: readonly ChartPoint[]): DataSummary {
  const values = points.map((p) => p.value).filter((v): v is number => v !== null && Number.isFinite(v));
  return {
    points: points.length,
    measured: values.length,
    min: values.length ? Math.min(...values) : null,
    avg: values.length ? values.reduce((a, b) => a + b, 0) / values.length : null,
    max: values.length ? Math.max(...values) : null,
    failures: points.filter((p) => p.failed).length,
  };
}
