/**
 * Random valid configurations, spread over random files, load into exactly the state their
 * parts describe; random junk never makes the loader throw.
 */
import { rm, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import type { DesiredAlert, DesiredState, MonitorSpec } from '../../src/model/desired.js';
import { ALLOWED_TIMERS, ALLOWED_TTLS } from '../../src/model/live.js';

type Obj = Record<string, unknown>;

const ZONES = ['Europe/London', 'UTC', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney'];
/** Any printable text, including YAML-significant characters and `$`. */
const text = (min = 0) =>
  fc
    .string({ unit: 'grapheme', minLength: min, maxLength: 16 })
    // Control characters are not what this property is about (and NUL makes a file binary).
    .filter((s) => !/[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/.test(s));
/** What the service needs a name in: text that is not only whitespace. */
const nonBlank = text(1).filter((s) => s.trim() !== '');
/** What an identity (label, group name, subject_init) is: not blank, and no whitespace of any kind at either end (issue 23). */
const identity = nonBlank.filter((s) => !/^[\s\u200b-\u200d\u2060]|[\s\u200b-\u200d\u2060]$/.test(s));
const name = identity.filter((s) => !/^(ext:|old:|legacy-)/.test(s));
const email = fc.stringMatching(/^[a-z][a-z0-9]{0,8}(\.[a-z0-9]{1,5})?@[a-z]{1,8}\.(com|net|org)$/);
const dests = fc.uniqueArray(fc.constantFrom('ops-mail', 'oncall-sms', 'duty-voice'), { maxLength: 3 });
// Mostly a few shared keys, so defaults and items collide and key-wise merging is exercised.
const meta = fc.dictionary(
  fc.oneof(fc.constantFrom('region', 'team', 'tier'), text(1).filter((k) => !['managed-by', '__proto__', 'constructor'].includes(k))),
  text(),
  { maxKeys: 3 },
);

function optional<T extends Obj>(shape: { [K in keyof T]: fc.Arbitrary<T[K]> }): fc.Arbitrary<Partial<T>> {
  return fc.record(shape, { requiredKeys: [] }) as fc.Arbitrary<Partial<T>>;
}

const monitorOptional = {
  use_tls: fc.constantFrom('off', 'on', 'auto'),
  attachment: fc.constantFrom('docx', 'pdf', null),
  custom_subject: text(),
  custom_body: text(),
  ttl: fc.constantFrom(...ALLOWED_TTLS),
  ipv6: fc.boolean(),
  message_format: fc.constantFrom('text/plain', 'text/html'),
  port: fc.integer({ min: 1, max: 65535 }),
  meta,
};
const monitorRequired = {
  ip_address: fc.oneof(fc.constantFrom('mx', 'mx:failover', '192.0.2.7', '2001:db8::25'), fc.domain()),
  test_account: email,
  timer: fc.constantFrom(...ALLOWED_TIMERS),
  time_zone: fc.constantFrom(...ZONES),
};
const alertOptional = {
  timeout: fc.integer({ min: 1, max: 1440 }),
  alert_destinations: dests,
  message_init: text(),
  message_term: text(),
  down_only: fc.boolean(),
  repeat: fc.boolean(),
};

const defaultsArb = fc.record(
  {
    monitor: optional({ ...monitorRequired, ...monitorOptional, type: fc.constant('smtp') }),
    alert: optional({ ...alertOptional, type: fc.constant('up-down') }),
  },
  { requiredKeys: [] },
);

function alertsArb(alertDefaults: Obj | undefined) {
  // subject_init identifies an alert on its monitor; each alert's previous subjects get their own prefix.
  return fc
    .uniqueArray(
      fc.record({
        subject_init: identity.filter((s) => !s.startsWith('prev')),
        subject_term: nonBlank,
        rest: optional(alertOptional),
        previous: fc.uniqueArray(text(1), { maxLength: 2 }),
      }),
      { selector: (a) => a.subject_init, maxLength: 3 },
    )
    .map((alerts) =>
      alerts.map((a, i) => {
        const out: Obj = { subject_init: a.subject_init, subject_term: a.subject_term, ...a.rest };
        if (alertDefaults?.timeout === undefined && out.timeout === undefined) out.timeout = 5;
        if (a.previous.length > 0) out.previous_subjects = a.previous.map((p) => `prev${i}:${p}`);
        return out;
      }),
    );
}

const configArb = defaultsArb.chain((defaults) =>
  fc
    .record({
      settings: fc.option(
        optional({ owner: text(1), ignore: fc.constant(['legacy-*']), prune: fc.boolean() }),
        { nil: undefined },
      ),
      monitors: fc.uniqueArray(
        fc.record({
          label: name,
          required: fc.record(monitorRequired),
          // Which required fields the item leaves to the defaults (only those the defaults have).
          omit: fc.subarray(Object.keys(monitorRequired)),
          rest: optional(monitorOptional),
          previous: fc.uniqueArray(text(1), { maxLength: 2 }),
          alerts: alertsArb(defaults.alert),
        }),
        { selector: (m) => m.label, maxLength: 5 },
      ),
      topAlerts: fc.uniqueArray(
        fc.record({ monitor: text(1).map((s) => `ext:${s}`), alerts: alertsArb(defaults.alert) }),
        { selector: (a) => a.monitor, maxLength: 3 },
      ),
      groups: fc.uniqueArray(
        fc.record({ name: name, previous: fc.uniqueArray(text(1), { maxLength: 2 }), members: fc.uniqueArray(text(1), { maxLength: 4 }) }),
        { selector: (g) => g.name, maxLength: 3 },
      ),
      fileCount: fc.integer({ min: 1, max: 3 }),
      placement: fc.array(fc.nat(), { minLength: 20, maxLength: 20 }),
    })
    .map((c) => ({ ...c, defaults })),
);

/** `${` would be read as a variable: the format's escape is `$${`. */
function escapeStrings(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll('${', '$${');
  if (Array.isArray(value)) return value.map(escapeStrings);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escapeStrings(v)]));
  }
  return value;
}

describe('random valid configurations', () => {
  it('load into the state they describe', async () => {
    await fc.assert(
      fc.asyncProperty(configArb, async (c) => {
        const monitors = c.monitors.map((m, i) => {
          const item: Obj = { label: m.label };
          for (const [k, v] of Object.entries(m.required)) {
            if (!(m.omit.includes(k) && (c.defaults.monitor as Obj | undefined)?.[k] !== undefined)) item[k] = v;
          }
          Object.assign(item, m.rest);
          if (m.previous.length > 0) item.previous_labels = m.previous.map((p) => `old:${i}:${p}`);
          if (m.alerts.length > 0) item.alerts = m.alerts;
          return item;
        });
        const topAlerts = c.topAlerts.flatMap((t) => t.alerts.map((a) => ({ monitor: t.monitor, ...a })));
        const groups = c.groups.map((g, i) => {
          const item: Obj = { name: g.name };
          if (g.previous.length > 0) item.previous_names = g.previous.map((p) => `old:${i}:${p}`);
          if (g.members.length > 0) item.monitors = g.members;
          return item;
        });

        // Spread items over the files; settings and defaults go to the first.
        const files: Obj[] = Array.from({ length: c.fileCount }, () => ({ version: 1 }));
        if (c.settings) files[0]!.settings = c.settings;
        if (Object.keys(c.defaults).length > 0) files[0]!.defaults = c.defaults;
        const place = <T>(key: string, items: T[], offset: number): T[][] => {
          const per: T[][] = files.map(() => []);
          items.forEach((item, i) => per[c.placement[(i + offset) % 20]! % c.fileCount]!.push(item));
          per.forEach((list, f) => list.length > 0 && (files[f]![key] = list));
          return per;
        };
        const monitorsPer = place('monitors', monitors, 0);
        const alertsPer = place('alerts', topAlerts, 7);
        const groupsPer = place('groups', groups, 13);

        const dir = await mkdtemp(path.join(tmpdir(), 'monsync-prop-'));
        try {
          for (const [i, f] of files.entries()) {
            await writeFile(path.join(dir, `f${i}.yaml`), stringify(escapeStrings(f)));
          }
          const result = await loadConfig([dir], { cwd: dir, env: {} });
          if (!('state' in result)) {
            throw new Error(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`).join('\n'));
          }
          const expected = expectedState(c.defaults, c.settings, monitorsPer.flat(), alertsPer.flat(), groupsPer.flat(), files.length);
          expect(stripSources(result.state)).toEqual(expected);
          for (const m of result.state.monitors) {
            expect(m.source.line).toBeGreaterThan(0);
            expect(result.state.files).toContain(m.source.file);
          }
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 120 },
    );
  });
});

/** The state restated from the format's rules: the item wins over defaults; meta merges key by key. */
function expectedState(
  defaults: { monitor?: Obj; alert?: Obj },
  settings: Obj | undefined,
  monitors: Obj[],
  alerts: Obj[],
  groups: Obj[],
  fileCount: number,
): unknown {
  const dm = defaults.monitor ?? {};
  const da = defaults.alert ?? {};
  const alert = (a: Obj, monitor: string): Omit<DesiredAlert, 'source'> => {
    const out: Obj = {
      monitor,
      subject_init: a.subject_init,
      subject_term: a.subject_term,
      timeout: a.timeout ?? da.timeout,
      alert_destinations: a.alert_destinations ?? da.alert_destinations ?? [],
      previous_subjects: a.previous_subjects ?? [],
    };
    for (const k of ['message_init', 'message_term', 'down_only', 'repeat']) {
      const v = a[k] ?? da[k];
      if (v !== undefined) out[k] = v;
    }
    return out as Omit<DesiredAlert, 'source'>;
  };
  return {
    settings: { owner: 'monsync', ignore: [], prune: false, ...settings },
    files: Array.from({ length: fileCount }, (_, i) => `f${i}.yaml`),
    monitors: monitors.map((m) => {
      const spec: Obj = {};
      for (const k of ['ip_address', 'test_account', 'timer', 'time_zone', ...Object.keys(monitorOptional)]) {
        if (k === 'meta') continue;
        const v = m[k] !== undefined ? m[k] : dm[k];
        if (v !== undefined) spec[k] = v;
      }
      if (m.meta !== undefined || dm.meta !== undefined) spec.meta = { ...(dm.meta as Obj), ...(m.meta as Obj) };
      return {
        label: m.label,
        previous_labels: m.previous_labels ?? [],
        spec: spec as unknown as MonitorSpec,
        alerts: ((m.alerts as Obj[] | undefined) ?? []).map((a) => alert(a, m.label as string)),
      };
    }),
    alerts: alerts.map((a) => alert(a, a.monitor as string)),
    groups: groups.map((g) => ({ name: g.name, previous_names: g.previous_names ?? [], monitors: g.monitors ?? null })),
  };
}

function stripSources(state: DesiredState): unknown {
  const noSource = <T extends { source: unknown }>({ source: _s, ...rest }: T) => rest;
  return {
    ...state,
    monitors: state.monitors.map((m) => ({ ...noSource(m), alerts: m.alerts.map(noSource) })),
    alerts: state.alerts.map(noSource),
    groups: state.groups.map(noSource),
  };
}

describe('random junk', () => {
  it('never throws: it always ends in diagnostics with real positions', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'monsync-junk-'));
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string({ unit: 'binary', maxLength: 200 }).map((s) => Buffer.from(s, 'utf8')),
            fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
            fc
              .array(fc.constantFrom('version: 1\n', 'monitors:\n', '  - label: x\n', '    timer: 7\n', '&a ', '*a\n', '<<: *a\n', '[', ']', '{', '}', ': ', '- ', '"', "'", '\t', '${X}', '#', '\n', '  '), { maxLength: 40 })
              .map((parts) => Buffer.from(parts.join(''), 'utf8')),
          ),
          async (content) => {
            await writeFile(path.join(dir, 'junk.yaml'), content);
            const result = await loadConfig(['junk.yaml'], { cwd: dir, env: {} });
            const diagnostics = 'state' in result ? result.warnings : result.diagnostics;
            for (const d of diagnostics) {
              expect(d.line).toBeGreaterThanOrEqual(1);
              expect(d.column).toBeGreaterThanOrEqual(1);
              expect(d.message).not.toMatch(/internal error|    at /);
            }
          },
        ),
        { numRuns: 300 },
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
