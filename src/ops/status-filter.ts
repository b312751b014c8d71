/**
 * Every monitor's entry of `GET /v1/Status/Filter/` over the last `t` seconds. The endpoint needs a
 * label filter (API 4.2: one of prefix, suffix, contains, meta), and none selects every monitor, so
 * the labels' first characters are asked for as prefixes: one request per distinct first
 * character, a few dozen for any account. Entries are kept by monitor id, only for the monitors
 * asked about (a prefix also finds monitors created since they were listed).
 */
import type { FilteredStatusEntry, StatusFilterQuery } from '../api/types.js';

export interface StatusFilterApi {
  getStatusFilter(query: StatusFilterQuery): Promise<{ monitor_list: FilteredStatusEntry[] }>;
}

/** The prefixes that cover these labels: their distinct first characters (whole code points). */
export function labelPrefixes(labels: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const label of labels) {
    const first = label.codePointAt(0);
    if (first !== undefined) out.add(String.fromCodePoint(first));
  }
  return [...out].sort();
}

/** The entries of these monitors over the last `t` seconds, by monitor id; the prefixes' requests one after another. */
export async function filterEntries(api: StatusFilterApi, t: number, monitors: readonly { id: string; label: string }[]): Promise<Map<string, FilteredStatusEntry>> {
  const wanted = new Set(monitors.map((m) => m.id));
  const out = new Map<string, FilteredStatusEntry>();
  for (const prefix of labelPrefixes(monitors.map((m) => m.label))) {
    const answer = await api.getStatusFilter({ t, prefix });
    for (const e of answer.monitor_list) if (wanted.has(e.monitor)) out.set(e.monitor, e);
  }
  return out;
}
