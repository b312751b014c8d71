/**
 * What one read of `monsync exporter` adds for the service-level families (slo-metrics.ts): each
 * monitor's objective (the configuration's `slo:`, by label), its group memberships (the account
 * read's groups), and its tests that count against the objective since the previous read.
 *
 * Bad tests are counted over exactly the tests `monsync_monitor_tests_total` counts (read.ts: the
 * tests started in [previous read - settle, now - settle), whose results are known): the failed
 * ones Status/Filter counts, plus, for a monitor with a round-trip bound, the completed ones slower
 * than it, which only the raw test data tells (one `Data/Monitor` read per such monitor and read;
 * monitors without a bound cost no request). The first read counts nothing, as for the tests.
 */
import { admitData, noneLeftOut } from '../../api/data-rules.js';
import type { MonitoringApi } from '../../api/types.js';
import type { ServiceLevel } from '../../model/fields.js';
import type { Group, Monitor } from '../../model/live.js';
import type { MonitorSample } from './metrics.js';
import { settleSeconds } from './read.js';

/** Names of the groups each monitor is in, by monitor id. */
export function membershipsOf(groups: readonly Group[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const g of groups) {
    for (const member of g.members) {
      const names = out.get(member.id);
      if (names) names.push(g.name);
      else out.set(member.id, [g.name]);
    }
  }
  return out;
}

/** The objectives of the configuration's monitors, by label. */
export function objectivesOf(monitors: readonly { label: string; slo?: ServiceLevel }[]): Map<string, ServiceLevel> {
  const out = new Map<string, ServiceLevel>();
  for (const m of monitors) if (m.slo !== undefined) out.set(m.label, m.slo);
  return out;
}

/** Completed tests slower than `boundSeconds` among raw data items (milliseconds). Pure. */
export function slowCount(items: readonly { value: number | null; failed: boolean }[], boundSeconds: number): number {
  let n = 0;
  for (const d of items) if (!d.failed && d.value !== null && d.value > boundSeconds * 1000) n++;
  return n;
}

/**
 * Per monitor id with a bound, its completed tests started in [from, to) slower than the bound.
 * Read at most `concurrency` monitors at a time (the client has its own cap too).
 */
export async function slowTests(api: MonitoringApi, bounded: readonly { id: string; boundSeconds: number }[], window: { from: number; to: number }, concurrency = 8): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (window.to <= window.from) return out;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < bounded.length) {
      const m = bounded[next++]!;
      // `end` is inclusive on the service.
      const data = await api.getMonitorData(m.id, { begin: window.from, end: window.to - 1, average: 'raw' });
      out.set(m.id, slowCount(admitData(data.data, window, noneLeftOut()), m.boundSeconds));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, bounded.length) }, worker));
  return out;
}

/** The samples with their objectives, memberships and bad tests. Pure. */
export function withServiceLevels(
  samples: readonly MonitorSample[],
  ctx: { objectives: ReadonlyMap<string, ServiceLevel> | null; memberships: ReadonlyMap<string, readonly string[]>; slow: ReadonlyMap<string, number> },
): MonitorSample[] {
  return samples.map((s) => {
    const slo = ctx.objectives?.get(s.label) ?? null;
    return { ...s, slo, groups: ctx.memberships.get(s.id) ?? [], newBadTests: slo === null ? 0 : s.newFailedTests + (ctx.slow.get(s.id) ?? 0) };
  });
}

/**
 * One read's samples with the service-level parts (withServiceLevels), the slow tests read first
 * for the monitors with an objective and a bound. `previousAt`: the previous read's time (null on
 * the first, which counts nothing); `objectives`: null without a configuration.
 */
export async function addServiceLevels(
  api: MonitoringApi,
  read: { samples: readonly MonitorSample[]; monitors: readonly Monitor[]; groups: readonly Group[]; objectives: ReadonlyMap<string, ServiceLevel> | null; previousAt: number | null; nowSeconds: number },
): Promise<MonitorSample[]> {
  const bounded: { id: string; boundSeconds: number }[] = [];
  for (const m of read.monitors) {
    const bound = read.objectives?.get(m.label)?.round_trip_seconds;
    if (bound !== undefined) bounded.push({ id: m.id, boundSeconds: bound });
  }
  let slow = new Map<string, number>();
  if (read.previousAt !== null && bounded.length > 0) {
    const settle = settleSeconds(read.monitors);
    slow = await slowTests(api, bounded, { from: read.previousAt - settle, to: read.nowSeconds - settle });
  }
  return withServiceLevels(read.samples, { objectives: read.objectives, memberships: membershipsOf(read.groups), slow });
}
