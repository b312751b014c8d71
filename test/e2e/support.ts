/**
 * What the end-to-end suites share: a temporary workspace for YAML files, the emulator state read
 * over its control API, and checks on it (no duplicates, writes recorded).
 */
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { buildCli } from '../helpers/cli.js';
import { startTestEmulator } from '../helpers/emulator.js';
import type { RecordedRequest, TestEmulator } from '../helpers/emulator.js';

export interface StateMonitor {
  id: string;
  label: string;
  type: string;
  meta?: Record<string, string>;
  alerts?: string[];
  groups?: string[];
  [k: string]: unknown;
}
export interface StateAlert {
  id: string;
  monitor: string;
  subject_init: string;
  alert_destinations?: string[];
  [k: string]: unknown;
}
export interface StateGroup {
  id: string;
  name: string;
  monitors: string[];
}
export interface EmuState {
  monitors: StateMonitor[];
  alerts: StateAlert[];
  groups: StateGroup[];
  destinations: { id: string; label: string }[];
}

export async function state(emu: TestEmulator): Promise<EmuState> {
  return (await emu.control.state()) as unknown as EmuState;
}

export const isSmtp = (m: StateMonitor): boolean => m.type.toLowerCase() === 'smtp';

/** Monitors carrying `managed-by: owner`. */
export function managed(s: EmuState, owner: string): StateMonitor[] {
  return s.monitors.filter((m) => isSmtp(m) && m.meta?.['managed-by'] === owner);
}

export function byLabel(s: EmuState, label: string): StateMonitor {
  const found = s.monitors.filter((m) => m.label === label);
  expect(found, `monitors labelled ${label}`).toHaveLength(1);
  return found[0]!;
}

export function groupByName(s: EmuState, name: string): StateGroup {
  const found = s.groups.filter((g) => g.name === name);
  expect(found, `groups named ${name}`).toHaveLength(1);
  return found[0]!;
}

/** Labels of a group's members, sorted. */
export function memberLabels(s: EmuState, name: string): string[] {
  const labels = new Map(s.monitors.map((m) => [m.id, m.label]));
  return groupByName(s, name)
    .monitors.map((id) => labels.get(id) ?? `?${id}`)
    .sort();
}

/** Subjects of the alerts on a monitor, sorted. */
export function alertSubjects(s: EmuState, label: string): string[] {
  const id = byLabel(s, label).id;
  return s.alerts
    .filter((a) => a.monitor === id)
    .map((a) => a.subject_init)
    .sort();
}

function repeated(xs: string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const x of xs) (seen.has(x) ? twice : seen).add(x);
  return [...twice].sort();
}

/** Never two SMTP monitors with one label, two alerts with one (monitor, subject_init), two groups with one name. */
export function expectNoDuplicates(s: EmuState): void {
  expect(repeated(s.monitors.filter(isSmtp).map((m) => m.label)), 'SMTP labels used twice').toEqual([]);
  expect(repeated(s.alerts.map((a) => `${a.monitor} / ${a.subject_init}`)), 'alerts made twice').toEqual([]);
  expect(repeated(s.groups.map((g) => g.name)), 'group names used twice').toEqual([]);
}

export const isWrite = (r: RecordedRequest): boolean => r.method !== 'GET';

export async function writes(emu: TestEmulator): Promise<RecordedRequest[]> {
  return (await emu.control.requests()).filter(isWrite);
}

/** The write requests in the log as `METHOD path`, for messages. */
export function describeRequests(rs: RecordedRequest[]): string[] {
  return rs.map((r) => `${r.method} ${r.path} -> ${r.status}${r.fault ? ` (${r.fault})` : ''}`);
}

/**
 * Waits until the emulator has answered every request it received: after a client was killed, a
 * request it sent may still be held by injected latency, and must land before the next read.
 */
export async function settleRequests(emu: TestEmulator, quietMs = 150): Promise<void> {
  let last = -1;
  for (let i = 0; i < 100; i++) {
    const n = (await emu.control.requests()).length;
    if (n === last) return;
    last = n;
    await new Promise((r) => setTimeout(r, quietMs));
  }
  throw new Error('the emulator kept receiving requests');
}

/** A temporary directory for configuration files and saved plans. */
export class Workspace {
  private constructor(readonly dir: string) {}

  static async create(): Promise<Workspace> {
    return new Workspace(await mkdtemp(join(tmpdir(), 'monsync-e2e-')));
  }

  path(name: string): string {
    return join(this.dir, name);
  }

  async write(name: string, text: string): Promise<string> {
    const p = this.path(name);
    await mkdir(dirname(p), { recursive: true });
    await writeFile(p, text, 'utf8');
    return p;
  }

  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}

export interface SimpleMonitor {
  label: string;
  ip_address?: string;
  timer?: number;
  previous_labels?: string[];
  alerts?: { subject_init: string; subject_term?: string; alert_destinations?: string[]; timeout?: number }[];
}

/** A configuration file in YAML: JSON is YAML, so values are written with JSON.stringify. */
export function configYaml(opts: {
  owner?: string;
  ignore?: string[];
  prune?: boolean;
  monitors?: SimpleMonitor[];
  alerts?: { monitor: string; subject_init: string; subject_term?: string }[];
  groups?: { name: string; monitors: string[]; previous_names?: string[] }[];
}): string {
  const j = JSON.stringify;
  const lines = ['version: 1', 'settings:', `  owner: ${j(opts.owner ?? 'e2e')}`, `  prune: ${opts.prune ?? false}`];
  if (opts.ignore) lines.push(`  ignore: ${j(opts.ignore)}`);
  lines.push(
    'defaults:',
    '  monitor:',
    '    time_zone: Europe/London',
    '    timer: 5',
    '    test_account: probe@example.com',
    '  alert:',
    '    timeout: 15',
    '    alert_destinations: [ops-mail]',
  );
  lines.push('monitors:');
  if (!opts.monitors?.length) lines[lines.length - 1] += ' []';
  for (const m of opts.monitors ?? []) {
    lines.push(`  - label: ${j(m.label)}`, `    ip_address: ${j(m.ip_address ?? `${m.label}.example.com`)}`);
    if (m.timer !== undefined) lines.push(`    timer: ${m.timer}`);
    if (m.previous_labels) lines.push(`    previous_labels: ${j(m.previous_labels)}`);
    if (m.alerts?.length) {
      lines.push('    alerts:');
      for (const a of m.alerts) {
        lines.push(`      - subject_init: ${j(a.subject_init)}`, `        subject_term: ${j(a.subject_term ?? `${a.subject_init} (resolved)`)}`);
        if (a.timeout !== undefined) lines.push(`        timeout: ${a.timeout}`);
        if (a.alert_destinations) lines.push(`        alert_destinations: ${j(a.alert_destinations)}`);
      }
    }
  }
  if (opts.alerts?.length) {
    lines.push('alerts:');
    for (const a of opts.alerts) {
      lines.push(
        `  - monitor: ${j(a.monitor)}`,
        `    subject_init: ${j(a.subject_init)}`,
        `    subject_term: ${j(a.subject_term ?? `${a.subject_init} (resolved)`)}`,
      );
    }
  }
  if (opts.groups?.length) {
    lines.push('groups:');
    for (const g of opts.groups) {
      lines.push(`  - name: ${j(g.name)}`, `    monitors: ${j(g.monitors)}`);
      if (g.previous_names) lines.push(`    previous_names: ${j(g.previous_names)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A raw SMTP monitor for /_emulator/seed, shaped like what the service returns. */
export function smtpSeed(label: string, meta: Record<string, string> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    label,
    type: 'smtp',
    description: null,
    ip_address: `${label}.example.org`,
    port: 25,
    ipv6: false,
    use_tls: 'auto',
    use_client_cert: false,
    test_account: 'probe@example.org',
    attachment: '',
    custom_subject: '',
    custom_body: '',
    message_format: 'text/plain',
    timer: 10,
    ttl: 0,
    timeout: 30,
    time_zone: 'Europe/London',
    data_label: 'seconds',
    meta,
    alerts: [],
    groups: [],
    ...extra,
  };
}

export function alertSeed(monitor: string, subject: string, destinations: string[] = []): Record<string, unknown> {
  return {
    type: 'up-down',
    monitor,
    alert_destinations: destinations,
    subject_init: subject,
    subject_term: `${subject} (resolved)`,
    message_init: '',
    message_term: '',
    down_only: false,
    repeat: false,
    timeout: 15,
    violations: '0',
  };
}

/**
 * The hooks every CLI suite shares: the CLI built once, one emulator and one workspace for the file,
 * and the account reset to the default seed before each test.
 */
export function e2eSuite(bind: (emu: TestEmulator, ws: Workspace) => void): void {
  let emu: TestEmulator | undefined;
  let ws: Workspace | undefined;
  beforeAll(async () => {
    await buildCli();
    emu = await startTestEmulator({ seed: 'default' });
    ws = await Workspace.create();
    bind(emu, ws);
  }, 300_000);
  beforeEach(async () => {
    await emu!.control.reset('default');
  });
  afterAll(async () => {
    // close() fails the suite when an answer disagreed with /v2/docs; the workspace goes either way.
    try {
      await emu?.close();
    } finally {
      await ws?.remove();
    }
  });
}
