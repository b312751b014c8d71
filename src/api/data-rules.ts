/**
 * The boundary rules for test data (API 2.8 data items), the one place that decides which items
 * of a data answer any figure may use: `data`, `status`, `apply --verify` and `report` all read the
 * service's data through `admitData` (`admitMonitorData` for a whole answer), as configuration is
 * read through the loader's rules. Here in `api/`, beside `normalize.ts`, so that every reader
 * (ops, mailpath, render) reaches the same rules: normalize makes an answer's shape canonical,
 * these decide which of its items are facts about tests.
 *
 * An item is left out, and counted, when it is
 * - **repeated**: a raw test is known by its start (`utc_mktime`), an hourly or daily average by
 *   its bucket's start; a service that answers an item twice has still run one test. Of copies that
 *   agree the settled one is kept (failed, or with a value, over one still in flight), else the first;
 * - **contradicting**: copies of one test whose settled results disagree (failed and passed, or two
 *   round trips): which one is true cannot be known, so none is believed and every copy is left
 *   out, said in a note of its own (a lying first copy once made a report of 263 failed tests of 288);
 * - **out of domain**: a `utc_mktime` that is not a whole number of seconds, a `value` that is not
 *   a JSON number (normalize.ts makes a string, "NaN" or a null start NaN), below 0 ms or above
 *   MAX_ROUND_TRIP_MS (no test runs that long: the longest `ttl` is 1,800 s), or `samples` that is
 *   not a whole number of at least 0;
 * - **outside the period** asked for: started before `from` or at/after `to`.
 * What was left out is a `LeftOut` value; `leftOutNote` says it in one sentence for every surface,
 * and nothing is said when nothing was left out.
 */
import type { DataItem, MonitorData } from './types.js';
import { plural } from '../util/plural.js';

/** The longest round trip a data item may record: one day, in milliseconds. */
export const MAX_ROUND_TRIP_MS = 86_400_000;

export interface LeftOut {
  repeated: number;
  outOfDomain: number;
  outsidePeriod: number;
  /** Items left out because copies of their test disagree. */
  contradicting: number;
}

/** The items' period: unix seconds, `from` inclusive, `to` exclusive. */
export interface DataPeriod {
  from: number;
  to: number;
}

/** What the rules read of an item: the API's data item, or a leaner copy of its fields. */
export type DataPoint = Pick<DataItem, 'utc_mktime' | 'value' | 'failed'> & { samples?: number | null };

export function noneLeftOut(): LeftOut {
  return { repeated: 0, outOfDomain: 0, outsidePeriod: 0, contradicting: 0 };
}

export function addLeftOut(into: LeftOut, from: LeftOut): void {
  into.repeated += from.repeated;
  into.outOfDomain += from.outOfDomain;
  into.outsidePeriod += from.outsidePeriod;
  into.contradicting += from.contradicting;
}

export function anyLeftOut(l: LeftOut): boolean {
  return l.repeated + l.outOfDomain + l.outsidePeriod + l.contradicting > 0;
}

/** Whether the item's fields are within the documented domain. */
export function inDomain(item: DataPoint): boolean {
  const { utc_mktime: t, value, samples } = item;
  if (!Number.isSafeInteger(t)) return false;
  if (value !== null && !(value >= 0 && value <= MAX_ROUND_TRIP_MS)) return false;
  if (samples !== undefined && samples !== null && !(Number.isSafeInteger(samples) && samples >= 0)) return false;
  return true;
}

/** One item at the boundary: true when it may count; otherwise it is counted in `leftOut` (repeats aside). */
export function admitOne(item: DataPoint, period: DataPeriod, leftOut: LeftOut): boolean {
  if (!inDomain(item)) {
    leftOut.outOfDomain++;
    return false;
  }
  if (item.utc_mktime < period.from || item.utc_mktime >= period.to) {
    leftOut.outsidePeriod++;
    return false;
  }
  return true;
}

/** A settled item (a result, failed or with a value) outranks one in flight. */
function settled(item: DataPoint): boolean {
  return item.failed || item.value !== null;
}

/** Two settled copies of one test that say different things about it. */
function disagree(a: DataPoint, b: DataPoint): boolean {
  return a.failed !== b.failed || a.value !== b.value;
}

/**
 * Keeps one item per start time of `items`, which are sorted by `utc_mktime` (stable for copies):
 * of copies that agree, the settled one; copies whose settled results disagree are all dropped.
 * Repeats and contradictions are counted in `leftOut`. Compacts `items` in place and returns it.
 */
export function dedupeSorted<T extends DataPoint>(items: T[], leftOut: LeftOut): T[] {
  let kept = 0;
  for (let i = 0; i < items.length; ) {
    let end = i + 1;
    while (end < items.length && (items[end] as T).utc_mktime === (items[i] as T).utc_mktime) end++;
    let chosen = items[i] as T;
    let contradicted = false;
    for (let j = i + 1; j < end; j++) {
      const copy = items[j] as T;
      if (settled(chosen) && settled(copy) && disagree(chosen, copy)) contradicted = true;
      else if (!settled(chosen) && settled(copy)) chosen = copy;
    }
    if (contradicted) leftOut.contradicting += end - i;
    else {
      leftOut.repeated += end - i - 1;
      items[kept++] = chosen;
    }
    i = end;
  }
  items.length = kept;
  return items;
}

/**
 * Whether the rules keep every item as it is, in this order: each in the domain and the period,
 * starts strictly increasing (what the service sends).
 */
function keptWhole(items: readonly DataPoint[], period: DataPeriod): boolean {
  let last = -Infinity;
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as DataPoint;
    const t = item.utc_mktime;
    if (!(t > last && t >= period.from && t < period.to) || !inDomain(item)) return false;
    last = t;
  }
  return true;
}

/**
 * The items any figure may use, sorted by start, one per start time; what was left out is added to
 * `leftOut`. An answer the rules keep whole is given back as it is (a month of a monitor's tests is
 * 8,640 items: no filtered and sorted copy of them).
 */
export function admitData<T extends DataPoint>(items: readonly T[], period: DataPeriod, leftOut: LeftOut): readonly T[] {
  if (keptWhole(items, period)) return items;
  const kept = items.filter((i) => admitOne(i, period, leftOut));
  let sorted = true;
  for (let i = 1; i < kept.length && sorted; i++) sorted = (kept[i - 1] as T).utc_mktime <= (kept[i] as T).utc_mktime;
  if (!sorted) kept.sort((a, b) => a.utc_mktime - b.utc_mktime);
  return dedupeSorted(kept, leftOut);
}

/** What was left out of every figure, one note each for what the rules dropped and for contradictions; [] when nothing was. */
export function leftOutNotes(l: LeftOut): string[] {
  const parts: string[] = [];
  if (l.repeated > 0) parts.push(`${plural(l.repeated, 'repeated data item')} (each test counted once)`);
  if (l.outOfDomain > 0) {
    parts.push(`${plural(l.outOfDomain, 'data item')} outside the documented domain (a time in whole seconds; a round trip of 0 ms to 1 day)`);
  }
  if (l.outsidePeriod > 0) parts.push(`${plural(l.outsidePeriod, 'data item')} outside the period asked for`);
  const notes = parts.length === 0 ? [] : [`Left out of every figure: ${parts.join('; ')}.`];
  if (l.contradicting > 0) {
    notes.push(`Contradicting: ${plural(l.contradicting, 'data item')} left out of every figure: copies of one test that disagree on its result (failed and passed, or two round trips), none of them believed.`);
  }
  return notes;
}

/** The notes of `leftOutNotes` as one text; null when nothing was left out. */
export function leftOutNote(l: LeftOut): string | null {
  const notes = leftOutNotes(l);
  return notes.length === 0 ? null : notes.join(' ');
}

/** A data answer after the rules, with what they left out. */
export type AdmittedData = MonitorData & { leftOut: LeftOut };

/**
 * A data answer (`monsync data`) through the rules. The period is the answer's `begin`..`end`
 * (both inclusive on the service); an hourly or daily average is dated by its bucket's start,
 * which may come before `begin`, so the period starts at the bucket holding `begin`.
 */
export function admitMonitorData(data: MonitorData, average: 'raw' | 'hour' | 'day' = 'raw'): AdmittedData {
  const bucket = average === 'hour' ? 3600 : average === 'day' ? 86_400 : 1;
  const leftOut = noneLeftOut();
  const items = admitData(data.data, { from: Math.floor(data.begin / bucket) * bucket, to: data.end + 1 }, leftOut);
  return { ...data, data: items, leftOut };
}
