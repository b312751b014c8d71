/**
 * Convergence against the emulator, property-based: random configurations (files written to disk,
 * read by loadConfig) against random accounts seeded with every shape the service is known to
 * return. The library runs in process for speed: readLive, diff and executePlan with the real HTTP
 * client. After one apply the plan is empty, a second apply sends only reads, and the request log
 * shows no write to anything the configuration does not own or name.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitoringClient } from '../../src/api/client.js';
import { executePlan } from '../../src/apply/execute.js';
import { loadConfig } from '../../src/config/index.js';
import type { DesiredState } from '../../src/model/desired.js';
import { diff } from '../../src/plan/diff.js';
import { readLive } from '../../src/plan/read-live.js';
import type { Plan } from '../../src/plan/types.js';
import { startTestEmulator, type RecordedRequest, type TestEmulator } from '../helpers/emulator.js';
import { Workspace, expectNoDuplicates, state, type EmuState } from './support.js';

const OWNER = 'prop';
const SUBJECTS = ['down', 'slow', 'bounced', 'tls broken'];
const DESTINATIONS = [
  { label: 'ops-mail', destination: 'ops@example.com', type: 'email', subscribed: true },
  { label: 'pager', destination: '+15555550100', type: 'sms', subscribed: true },
  { label: 'old-mail', destination: 'old@example.com', type: 'EMAIL', subscribed: false },
  { label: 'voice', destination: '+15555550101', type: 'voice', subscribed: true },
];
const DEST_LABELS = DESTINATIONS.map((d) => d.label);
const TIME_ZONES = ['Europe/London', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney'];

let emu: TestEmulator;
let ws: Workspace;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
  ws = await Workspace.create();
});
afterAll(async () => {
  await emu?.close();
  await ws?.remove();
});

// ---- arbitraries ------------------------------------------------------------------------------

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** A monitor as the configuration declares it: the required fields and any of the optional ones. */
const specArb = fc.record(
  {
    ip_address: fc.constantFrom('mx', 'mx:failover', 'mail.example.com', '192.0.2.25'),
    test_account: fc.constantFrom('probe@example.com', 'probe2@example.org'),
    timer: fc.constantFrom(3, 5, 10, 15, 20, 30),
    time_zone: fc.constantFrom(...TIME_ZONES),
    port: fc.constantFrom(25, 465, 587, 2525),
    ipv6: fc.boolean(),
    use_tls: fc.constantFrom('on', 'off', 'auto'),
    attachment: fc.constantFrom('docx', 'pdf', null),
    custom_subject: fc.constantFrom('', '[e2e]', 'Prüfung ✓'),
    custom_body: fc.constantFrom('', 'line 1\nline 2'),
    message_format: fc.constantFrom('text/plain', 'text/html'),
    ttl: fc.constantFrom(0, 30, 60, 180, 300, 600, 1800),
    meta: fc.dictionary(fc.constantFrom('region', 'team', 'tier'), fc.constantFrom('eu', 'us', '1', 'mail')),
  },
  { requiredKeys: ['ip_address', 'test_account', 'timer', 'time_zone'] },
);
type Spec = typeof specArb extends fc.Arbitrary<infer T> ? T : never;

const alertSpecArb = fc.record(
  {
    subject_term: fc.constantFrom('up', 'recovered'),
    timeout: fc.constantFrom(5, 15, 30, 60),
    alert_destinations: fc.subarray(DEST_LABELS, { maxLength: 2 }),
    message_init: fc.constantFrom('', 'It is down.'),
    message_term: fc.constantFrom('', 'It is up.'),
    down_only: fc.boolean(),
    repeat: fc.boolean(),
  },
  { requiredKeys: ['subject_term', 'timeout', 'alert_destinations'] },
);
type AlertSpec = typeof alertSpecArb extends fc.Arbitrary<infer T> ? T : never;
const alertsArb = fc.uniqueArray(fc.record({ subject: fc.constantFrom(...SUBJECTS), spec: alertSpecArb }), {
  maxLength: 2,
  selector: (a) => a.subject,
});

/** Live alerts as the service holds them (some wire quirks included). */
const liveAlertsArb = fc.uniqueArray(
  fc.record({
    subject: fc.constantFrom(...SUBJECTS),
    destinations: fc.subarray([0, 1, 2, 3], { maxLength: 2 }),
    timeout: fc.constantFrom(5, 15),
    repeat: fc.boolean(),
  }),
  { maxLength: 2, selector: (a) => a.subject },
);

/** An SMTP monitor as seeded, with the quirks the API document shows. */
const liveSmtpArb = fc.record({
  timerAsString: fc.boolean(),
  timer: fc.constantFrom(5, 10),
  use_tls: fc.constantFrom('auto', 'on', null),
  attachment: fc.constantFrom('', 'pdf', null),
  ttl: fc.constantFrom(0, 600, null),
  meta: fc.dictionary(fc.constantFrom('region', 'team'), fc.constantFrom('eu', 'us')),
  alerts: liveAlertsArb,
});
type LiveSmtp = typeof liveSmtpArb extends fc.Arbitrary<infer T> ? T : never;

const otherArb = fc.record({
  type: fc.constantFrom('HTTP', 'Ping', 'DNS Query', 'TCP Port'),
  timerAsString: fc.boolean(),
  // Some services leave `alerts` / `groups` out of other monitor types: membership then needs group reads.
  fieldsShown: fc.boolean(),
  alerts: liveAlertsArb,
});

const desiredFor = fc.record({ spec: specArb, alerts: alertsArb });

const scenarioArb = fc.record({
  unmanaged: fc.array(fc.record({ live: liveSmtpArb, fate: fc.constantFrom('leave', 'leave', 'adopt', 'rename'), want: desiredFor }), { maxLength: 4 }),
  managed: fc.array(fc.record({ live: liveSmtpArb, fate: fc.constantFrom('keep', 'keep', 'rename', 'drop'), want: desiredFor }), { maxLength: 4 }),
  foreign: fc.array(liveSmtpArb, { maxLength: 2 }),
  other: fc.array(otherArb, { maxLength: 3 }),
  ignored: fc.array(fc.record({ live: liveSmtpArb, ours: fc.boolean() }), { maxLength: 2 }),
  liveGroups: fc.array(fc.subarray([...Array(16).keys()], { maxLength: 4 }), { maxLength: 3 }),
  ignoredGroup: fc.boolean(),
  prune: fc.boolean(),
  fresh: fc.array(desiredFor, { maxLength: 3 }),
  topAlerts: fc.array(fc.record({ pick: fc.nat(), subject: fc.constantFrom(...SUBJECTS), spec: alertSpecArb }), { maxLength: 3 }),
  groups: fc.array(
    fc.record({ how: fc.constantFrom('new', 'exact', 'rename'), pick: fc.nat(), members: fc.array(fc.nat(), { maxLength: 5 }) }),
    { maxLength: 3 },
  ),
});
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

// ---- seeding the account ------------------------------------------------------------------------

function smtpRaw(label: string, l: LiveSmtp, meta: Record<string, string>): Record<string, unknown> {
  return {
    label,
    type: 'smtp',
    description: null,
    ip_address: 'mx',
    port: 25,
    ipv6: false,
    use_tls: l.use_tls,
    use_client_cert: false,
    test_account: 'probe@example.com',
    attachment: l.attachment,
    custom_subject: '',
    custom_body: '',
    message_format: 'text/plain',
    timer: l.timerAsString ? String(l.timer) : l.timer,
    ttl: l.ttl,
    timeout: 30,
    time_zone: 'Europe/London',
    data_label: 'seconds',
    meta,
    alerts: [],
    groups: [],
  };
}

interface Seeded {
  /** Every live monitor: label, id and what it is to this configuration. */
  monitors: { label: string; id: string; cls: 'unmanaged' | 'managed' | 'foreign' | 'other' | 'ignored' }[];
  /** With the ids of the monitors seeded into them. */
  groups: { name: string; id: string; monitors: string[] }[];
}

async function seedAccount(sc: Scenario): Promise<Seeded> {
  await emu.control.reset('empty');
  const destIds = (await emu.control.seed({ destinations: DESTINATIONS })).destinations;
  const rows: { label: string; cls: Seeded['monitors'][number]['cls']; raw: Record<string, unknown>; alerts: LiveSmtp['alerts'] }[] = [];
  sc.unmanaged.forEach((u, i) => rows.push({ label: `um-${i}`, cls: 'unmanaged', raw: smtpRaw(`um-${i}`, u.live, u.live.meta), alerts: u.live.alerts }));
  sc.managed.forEach((m, i) =>
    rows.push({ label: `mg-${i}`, cls: 'managed', raw: smtpRaw(`mg-${i}`, m.live, { ...m.live.meta, 'managed-by': OWNER }), alerts: m.live.alerts }),
  );
  sc.foreign.forEach((f, i) =>
    rows.push({ label: `fx-${i}`, cls: 'foreign', raw: smtpRaw(`fx-${i}`, f, { ...f.meta, 'managed-by': 'someone-else' }), alerts: f.alerts }),
  );
  sc.ignored.forEach((g, i) =>
    rows.push({ label: `ig-${i}`, cls: 'ignored', raw: smtpRaw(`ig-${i}`, g.live, g.ours ? { 'managed-by': OWNER } : {}), alerts: g.live.alerts }),
  );
  sc.other.forEach((o, i) => {
    const label = `ot-${i}`;
    const raw: Record<string, unknown> = {
      label,
      type: o.type,
      description: null,
      [o.type === 'Ping' ? 'hostname' : 'ip_address']: `${label}.example.net`,
      timer: o.timerAsString ? '5' : 5,
      time_zone: 'UTC',
      data_label: 'milliseconds',
      meta: {},
      ...(o.fieldsShown ? { alerts: [], groups: [] } : {}),
    };
    rows.push({ label, cls: 'other', raw, alerts: o.alerts });
  });
  const ids = (await emu.control.seed({ monitors: rows.map((r) => r.raw) })).monitors;
  const alerts = rows.flatMap((r, i) =>
    r.alerts.map((a) => ({
      type: 'up-down',
      monitor: ids[i],
      subject_init: a.subject,
      subject_term: 'up',
      alert_destinations: a.destinations.map((d) => destIds[d]),
      message_init: '',
      message_term: '',
      down_only: false,
      repeat: a.repeat,
      timeout: a.timeout,
      violations: '0',
    })),
  );
  const groups = sc.liveGroups.map((members, i) => ({
    name: `lg-${i}`,
    monitors: [...new Set(members.filter((m) => m < ids.length).map((m) => ids[m]!))],
  }));
  if (sc.ignoredGroup) groups.push({ name: 'ig-group', monitors: ids.slice(0, 2) });
  const more = await emu.control.seed({ alerts, groups });
  return {
    monitors: rows.map((r, i) => ({ label: r.label, id: ids[i]!, cls: r.cls })),
    groups: groups.map((g, i) => ({ name: g.name, id: more.groups[i]!, monitors: g.monitors })),
  };
}

// ---- the configuration ----------------------------------------------------------------------------

interface Config {
  text: string;
  /** Live monitor labels the configuration names (exactly or as a previous label). */
  named: Set<string>;
  /** Top-level alerts: `monitor label / subject`. */
  topAlerts: Set<string>;
  /** Live group names the configuration names (exactly or as a previous name). */
  namedGroups: Set<string>;
  /** Monitor labels used by group members and top-level alerts (never pruned). */
  referenced: Set<string>;
  prune: boolean;
}

function alertYaml(subject: string, a: AlertSpec): Record<string, unknown> {
  return { subject_init: subject, ...a };
}

function monitorYaml(label: string, spec: Spec, alerts: { subject: string; spec: AlertSpec }[], previous?: string): Record<string, unknown> {
  return {
    label,
    ...(previous ? { previous_labels: [previous] } : {}),
    ...spec,
    alerts: alerts.map((a) => alertYaml(a.subject, a.spec)),
  };
}

function buildConfig(sc: Scenario, seeded: Seeded): Config {
  const monitors: Record<string, unknown>[] = [];
  const named = new Set<string>();
  /** Labels a reference (group member, top-level alert) may use. */
  const referable: string[] = [];
  sc.unmanaged.forEach((u, i) => {
    const label = `um-${i}`;
    if (u.fate === 'leave') {
      referable.push(label);
      return;
    }
    named.add(label);
    const now = u.fate === 'rename' ? `rn-${label}` : label;
    monitors.push(monitorYaml(now, u.want.spec, u.want.alerts, u.fate === 'rename' ? label : undefined));
    referable.push(now);
  });
  sc.managed.forEach((m, i) => {
    const label = `mg-${i}`;
    if (m.fate === 'drop') return;
    named.add(label);
    const now = m.fate === 'rename' ? `rn-${label}` : label;
    monitors.push(monitorYaml(now, m.want.spec, m.want.alerts, m.fate === 'rename' ? label : undefined));
    referable.push(now);
  });
  sc.fresh.forEach((f, i) => {
    monitors.push(monitorYaml(`new-${i}`, f.spec, f.alerts));
    referable.push(`new-${i}`);
  });
  // Top-level alerts go on monitors the configuration does not manage: unmanaged ones it leaves, other types.
  const hosts = [
    ...sc.unmanaged.flatMap((u, i) => (u.fate === 'leave' ? [`um-${i}`] : [])),
    ...sc.other.map((_, i) => `ot-${i}`),
  ];
  referable.push(...sc.other.map((_, i) => `ot-${i}`), ...sc.foreign.map((_, i) => `fx-${i}`));
  const topAlerts = new Set<string>();
  const alerts: Record<string, unknown>[] = [];
  if (hosts.length > 0) {
    for (const t of sc.topAlerts) {
      const monitor = hosts[t.pick % hosts.length]!;
      const key = `${monitor} / ${t.subject}`;
      if (topAlerts.has(key)) continue;
      topAlerts.add(key);
      alerts.push({ monitor, ...alertYaml(t.subject, t.spec) });
    }
  }
  const referenced = new Set(alerts.map((a) => String(a.monitor)));
  const groups: Record<string, unknown>[] = [];
  const namedGroups = new Set<string>();
  const liveNames = seeded.groups.map((g) => g.name).filter((n) => !n.startsWith('ig-'));
  sc.groups.forEach((g, i) => {
    const members = referable.length ? [...new Set(g.members.map((m) => referable[m % referable.length]!))] : [];
    for (const m of members) referenced.add(m);
    const free = liveNames.filter((n) => !namedGroups.has(n));
    if (g.how === 'new' || free.length === 0) {
      groups.push({ name: `dg-${i}`, monitors: members });
      return;
    }
    const live = free[g.pick % free.length]!;
    namedGroups.add(live);
    groups.push(g.how === 'exact' ? { name: live, monitors: members } : { name: `rg-${i}`, previous_names: [live], monitors: members });
  });
  const doc = {
    version: 1,
    settings: { owner: OWNER, ignore: ['ig-*'], prune: sc.prune },
    monitors,
    ...(alerts.length ? { alerts } : {}),
    ...(groups.length ? { groups } : {}),
  };
  // JSON is YAML; one key per line so diagnostics would point somewhere useful.
  return { text: `${JSON.stringify(doc, null, 2)}\n`, named, topAlerts, namedGroups, referenced, prune: sc.prune };
}

// ---- running it -----------------------------------------------------------------------------------

function client(): MonitoringClient {
  return new MonitoringClient({ baseUrl: emu.url, username: 'demo@example.com', password: 'demo-password', sleep: async () => {} });
}

async function load(dir: string): Promise<DesiredState> {
  const r = await loadConfig([dir], { cwd: dir, env: {} });
  if ('diagnostics' in r) throw new Error(`generated configuration rejected:\n${JSON.stringify(r.diagnostics, null, 2)}`);
  return r.state;
}

async function planFor(desired: DesiredState, api: MonitoringClient): Promise<Plan> {
  const needed = new Set(desired.groups.flatMap((g) => [g.name, ...g.previous_names]));
  const { live } = await readLive(api, { groupsNeeded: needed });
  return diff(desired, live, { target: api.baseUrl, prune: desired.settings.prune, targets: [] });
}

const pathId = (path: string): { kind: string; id: string } | null => {
  const m = /^\/v1\/Config\/(Monitor|Alert|Group)\/([^/]+)\/$/.exec(path);
  return m ? { kind: m[1]!, id: decodeURIComponent(m[2]!) } : null;
};

let run = 0;

describe('property: convergence and hands off what is not ours', () => {
  it('after apply the plan is empty, a second apply only reads, and nothing unowned was written', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (sc) => {
        run += 1;
        const seeded = await seedAccount(sc);
        const cfg = buildConfig(sc, seeded);
        const dir = ws.path(`run-${run}`);
        await ws.write(`run-${run}/monsync.yaml`, cfg.text);
        const before = await state(emu);
        await emu.control.clearRequests();

        const desired = await load(dir);
        const api = client();
        const plan = await planFor(desired, api);
        const result = await executePlan(plan, api, { parallelism: 8, owner: OWNER });
        expect(result.results.filter((r) => r.status !== 'done'), cfg.text).toEqual([]);
        const requests = await emu.control.requests();

        const after = await state(emu);
        expectNoDuplicates(after);
        const again = await planFor(await load(dir), client());
        expect(again.changes.map((c) => `${c.action} ${c.kind} ${c.key}: ${c.changed.join(', ')}`), cfg.text).toEqual([]);

        // The second apply: the same steps again, and only reads reach the service.
        await emu.control.clearRequests();
        const api2 = client();
        const plan2 = await planFor(await load(dir), api2);
        await executePlan(plan2, api2, { parallelism: 8, owner: OWNER });
        expect((await emu.control.requests()).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([]);

        checkHandsOff(seeded, cfg, before, after, requests);
      }),
      { numRuns: Number(process.env.E2E_PROPERTY_RUNS ?? 20), endOnFailure: true },
    );
  }, 120_000);
});

/** No write to what the configuration neither owns nor names, and that state unchanged. */
function checkHandsOff(seeded: Seeded, cfg: Config, before: EmuState, after: EmuState, requests: RecordedRequest[]): void {
  const labelOf = new Map(before.monitors.map((m) => [m.id, m.label]));
  // With prune, unmanaged monitors nothing refers to are deleted (and undeclared groups); without, left alone.
  const leftAlone = (label: string) => !cfg.named.has(label) && (!cfg.prune || cfg.referenced.has(label));
  const untouchable = new Set(
    seeded.monitors
      .filter((m) => m.cls === 'foreign' || m.cls === 'other' || m.cls === 'ignored' || (m.cls === 'unmanaged' && leftAlone(m.label)))
      .map((m) => m.id),
  );
  const pruned = seeded.monitors.filter((m) => m.cls === 'unmanaged' && cfg.prune && !cfg.named.has(m.label) && !cfg.referenced.has(m.label));
  for (const m of pruned) expect(after.monitors.some((x) => x.id === m.id), `${m.label} pruned`).toBe(false);
  const untouchableLabels = new Set([...untouchable].map((id) => labelOf.get(id)!));
  // Alerts on those monitors that the configuration does not declare.
  const foreignAlerts = new Set(
    before.alerts
      .filter((a) => untouchable.has(a.monitor) && !cfg.topAlerts.has(`${labelOf.get(a.monitor)} / ${a.subject_init}`))
      .map((a) => a.id),
  );
  // An undeclared group listing a monitor of another owner is that owner's: --prune keeps it.
  const clsOf = new Map(seeded.monitors.map((m) => [m.id, m.cls]));
  const othersGroup = (g: Seeded['groups'][number]) => g.monitors.some((id) => clsOf.get(id) === 'foreign');
  const foreignGroups = new Set(
    seeded.groups
      .filter((g) => !cfg.namedGroups.has(g.name) && (!cfg.prune || g.name.startsWith('ig-') || othersGroup(g)))
      .map((g) => g.id),
  );
  if (cfg.prune) {
    const names = after.groups.map((g) => g.name);
    for (const g of seeded.groups) {
      if (!cfg.namedGroups.has(g.name) && !g.name.startsWith('ig-') && !othersGroup(g)) expect(names).not.toContain(g.name);
    }
  }

  const bad: string[] = [];
  for (const r of requests) {
    if (r.method === 'GET') continue;
    const target = pathId(r.path);
    const body = (r.body ?? {}) as Record<string, unknown>;
    if (target?.kind === 'Monitor' && untouchable.has(target.id)) bad.push(`${r.method} ${r.path}: monitor ${labelOf.get(target.id)}`);
    if (target?.kind === 'Alert' && foreignAlerts.has(target.id)) bad.push(`${r.method} ${r.path}: an alert the config does not declare`);
    if (target?.kind === 'Group' && foreignGroups.has(target.id)) bad.push(`${r.method} ${r.path}: an undeclared group`);
    if (r.method === 'POST' && r.path === '/v1/Config/Monitor/' && untouchableLabels.has(String(body.label))) {
      bad.push(`POST ${r.path}: a second monitor labelled ${String(body.label)}`);
    }
    if (r.method === 'POST' && r.path === '/v1/Config/Alert/' && untouchable.has(String(body.monitor))) {
      const key = `${labelOf.get(String(body.monitor))} / ${String(body.subject_init)}`;
      if (!cfg.topAlerts.has(key)) bad.push(`POST ${r.path}: alert ${key}, not declared`);
    }
    if (r.method === 'POST' && r.path === '/v1/Config/Group/' && seeded.groups.some((g) => g.name === body.name)) {
      bad.push(`POST ${r.path}: a second group named ${String(body.name)}`);
    }
  }
  expect(bad, cfg.text).toEqual([]);

  // And so their state is as it was (a monitor's own alert and group lists may change with declared ones).
  const strip = ({ alerts: _a, groups: _g, ...m }: EmuState['monitors'][number]) => m;
  const pick = (s: EmuState) => ({
    monitors: s.monitors.filter((m) => untouchable.has(m.id)).map(strip),
    alerts: s.alerts.filter((a) => foreignAlerts.has(a.id)),
    groups: s.groups
      .filter((g) => foreignGroups.has(g.id))
      // Members deleted by this apply (managed monitors it removed) leave their groups with them.
      .map((g) => ({ ...g, monitors: g.monitors.filter((id) => after.monitors.some((m) => m.id === id)) })),
  });
  expect(pick(after), cfg.text).toEqual(pick(before));
}
