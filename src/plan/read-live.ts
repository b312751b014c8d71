/**
 * Reads the whole account in as few requests as the API allows: the four list endpoints, in
 * parallel. Group membership comes from each monitor's `groups` field; only where some monitor
 * did not report it (other monitor types may not) are single-group reads needed, and then only
 * for the groups the plan will diff. Any failed or malformed read rejects: an account that could
 * not be read must never look empty. Nor may one whose lists contradict each other (an alert on a
 * monitor the monitor list lacks, a monitor naming alerts or groups the other lists lack; see
 * consistency.ts): such a read is made once more, whole, and if it still contradicts itself readLive
 * rejects with AccountContradictionError before anything could be planned from it. An entry a list
 * repeats with the same id is one resource: identical copies are merged, differing ones contradict.
 */
import type { MonitoringApi } from '../api/types.js';
import type { Alert, Destination, Group, GroupMember, GroupSummary, LiveState, Monitor } from '../model/live.js';
import { mergeRepeats, readConsistently, type Contradiction } from './consistency.js';

export interface ReadLiveOptions {
  /**
   * Names of groups whose exact membership the plan needs (declared names and previous names). A
   * promise lets the list reads start before the configuration is loaded: it is awaited only when
   * single-group reads turn out to be needed.
   */
  groupsNeeded?: ReadonlySet<string> | PromiseLike<ReadonlySet<string> | undefined>;
  /** Filled with each monitor's type as the service sent it (MonitorListOptions.wireTypes). */
  wireTypes?: Map<string, string>;
  /** Aborted: no further request starts and every wait (a 429's hold, a backoff) ends at once. */
  signal?: AbortSignal;
}

export interface ReadLiveResult {
  live: LiveState;
  /** How membership was found: from monitors' `groups`, or single-group reads for some groups. */
  membership: 'monitor-fields' | 'group-reads';
  groupReads: number;
  ms: number;
  /**
   * What the first read contradicted when it was read again and the second read did not: empty
   * for a read that agreed with itself the first time.
   */
  healed: Contradiction[];
}

export async function readLive(api: MonitoringApi, opts: ReadLiveOptions = {}): Promise<ReadLiveResult> {
  const started = performance.now();
  const { value, healed } = await readConsistently(
    () => readOnce(api, opts),
    (r) => ({ ...r.live, membersFrom: r.membership }),
  );
  return { ...value, healed, ms: performance.now() - started };
}

async function readOnce(api: MonitoringApi, opts: ReadLiveOptions): Promise<Omit<ReadLiveResult, 'ms' | 'healed'>> {
  // An entry a list repeats is one entry: identical copies merged here, differing ones left for the
  // consistency check to refuse (never planned as duplicates of themselves).
  const call = opts.signal ? { signal: opts.signal } : undefined;
  const [monitors, alerts, groupList, destinations] = (
    await Promise.all([
      opts.wireTypes ? api.listMonitors({ ...call, wireTypes: opts.wireTypes }) : api.listMonitors(call),
      api.listAlerts(call),
      api.listGroups(call),
      api.listDestinations(call),
    ])
  ).map((xs) => mergeRepeats(xs as { id: string }[])) as [Monitor[], Alert[], GroupSummary[], Destination[]];

  const complete = monitors.every((m) => m.groups !== null);
  const derived = membershipFromMonitors(monitors);
  let groups: Group[];
  let groupReads = 0;
  if (complete) {
    groups = groupList.map((g) => ({ id: g.id, name: g.name, members: derived.get(g.id) ?? [] }));
  } else {
    const needed = await opts.groupsNeeded;
    const toRead = groupList.filter((g) => needed === undefined || needed.has(g.name));
    groupReads = toRead.length;
    const read = new Map((await Promise.all(toRead.map((g) => api.getGroup(g.id, call)))).map((g) => [g.id, g]));
    const labels = new Map(monitors.map((m) => [m.id, m.label]));
    groups = groupList.map((g) => {
      const full = read.get(g.id);
      // The single-group read is the truth; fill labels the response left out from the monitor list.
      const members = full
        ? mergeRepeats(full.members).map((m) => ({ id: m.id, label: m.label ?? labels.get(m.id) ?? null }))
        : (derived.get(g.id) ?? []);
      return { id: g.id, name: g.name, members };
    });
  }

  return {
    live: { monitors, alerts, groups, destinations },
    membership: complete ? 'monitor-fields' : 'group-reads',
    groupReads,
  };
}

function membershipFromMonitors(monitors: Monitor[]): Map<string, GroupMember[]> {
  const byGroup = new Map<string, GroupMember[]>();
  for (const m of monitors) {
    for (const gid of m.groups ?? []) {
      let list = byGroup.get(gid);
      if (!list) byGroup.set(gid, (list = []));
      list.push({ id: m.id, label: m.label });
    }
  }
  return byGroup;
}
