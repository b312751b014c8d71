/** The schema file's own promises (to editors and to the loader) and the shipped examples. */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { ALLOWED_TIMERS, ALLOWED_TTLS } from '../../src/model/live.js';
import { stateOf } from './helpers.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const schema = JSON.parse(readFileSync(path.join(root, 'schemas/monsync.schema.json'), 'utf8')) as Record<string, unknown>;

type S = Record<string, unknown>;

/** Every object schema in the document, with its JSON pointer. */
function objectSchemas(node: unknown, at = '#'): { at: string; schema: S }[] {
  if (!node || typeof node !== 'object') return [];
  const s = node as S;
  const out: { at: string; schema: S }[] = [];
  if (s.type === 'object') out.push({ at, schema: s });
  for (const [k, v] of Object.entries(s)) {
    if (k === 'properties' || k === 'patternProperties') {
      for (const [pk, pv] of Object.entries(v as S)) out.push(...objectSchemas(pv, `${at}/${k}/${pk}`));
    } else if (k === 'items' || k === 'additionalProperties') out.push(...objectSchemas(v, `${at}/${k}`));
  }
  return out;
}

function at(pointer: string): S {
  return pointer
    .split('/')
    .slice(1)
    .reduce<S>((s, k) => s[k] as S, schema);
}

describe('schemas/monsync.schema.json', () => {
  it('is draft 2020-12 with an $id', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(typeof schema.$id).toBe('string');
  });

  it('closes every object and describes every property', () => {
    const objects = objectSchemas(schema);
    expect(objects.length).toBeGreaterThan(8);
    for (const { at: where, schema: s } of objects) {
      if (where.endsWith('/meta')) {
        // meta is the one open mapping (user keys), but its values are still constrained.
        expect((s.additionalProperties as S).type, where).toBe('string');
      } else {
        expect(s.additionalProperties, where).toBe(false);
      }
      for (const [key, prop] of Object.entries((s.properties as S | undefined) ?? {})) {
        expect(typeof (prop as S).description, `${where}/properties/${key}`).toBe('string');
      }
    }
  });

  it('lists the allowed values of the API', () => {
    const monitor = '#/properties/monitors/items/properties';
    expect(at(`${monitor}/timer`).enum).toEqual([...ALLOWED_TIMERS]);
    expect(at(`${monitor}/ttl`).enum).toEqual([...ALLOWED_TTLS]);
    expect(at(`${monitor}/use_tls`).enum).toEqual(['off', 'on', 'auto']);
    expect(at(`${monitor}/attachment`).enum).toEqual(['docx', 'pdf', null]);
    expect(at(`${monitor}/message_format`).enum).toEqual(['text/plain', 'text/html']);
    expect(at('#/properties/defaults/properties/monitor/properties/timer').enum).toEqual([...ALLOWED_TIMERS]);
  });

  it('offers every create field of the API on monitors and alerts', () => {
    const monitorFields = ['type', 'label', 'timer', 'time_zone', 'ip_address', 'test_account', 'use_tls', 'attachment',
      'custom_subject', 'custom_body', 'ttl', 'ipv6', 'message_format', 'port', 'meta'];
    const alertFields = ['subject_init', 'subject_term', 'timeout', 'alert_destinations', 'message_init', 'message_term',
      'down_only', 'repeat', 'type'];
    expect(Object.keys(at('#/properties/monitors/items/properties') as S)).toEqual(expect.arrayContaining(monitorFields));
    expect(Object.keys(at('#/properties/monitors/items/properties/alerts/items/properties') as S)).toEqual(
      expect.arrayContaining(alertFields),
    );
    expect(Object.keys(at('#/properties/alerts/items/properties') as S)).toEqual(expect.arrayContaining([...alertFields, 'monitor']));
    // And `slo`, which stays in the repository (issue 46): never a field of the API.
    expect(Object.keys(at('#/properties/defaults/properties/monitor/properties') as S).sort()).toEqual(
      [...monitorFields.filter((f) => f !== 'label'), 'slo'].sort(),
    );
    expect(Object.keys(at('#/properties/defaults/properties/alert/properties') as S).sort()).toEqual(
      alertFields.filter((f) => !f.startsWith('subject')).sort(),
    );
  });
});

describe('examples', () => {
  it('small validates', async () => {
    const state = stateOf(await loadConfig(['examples/small'], { cwd: root, env: {} }));
    expect(state.files).toEqual(['examples/small/monsync.yaml']);
    expect(state.monitors.map((m) => m.label)).toEqual(['mx-primary', 'mx-backup']);
    expect(state.monitors.every((m) => m.alerts.length === 1 && m.alerts[0]!.timeout === 15)).toBe(true);
  });

  it('realistic validates across its files and uses only the emulator seed names', async () => {
    const result = await loadConfig(['examples/realistic'], { cwd: root, env: {} });
    const state = stateOf(result);
    expect('warnings' in result && result.warnings).toEqual([]);
    expect(state.files.map((f) => path.basename(f))).toEqual(['americas.yaml', 'europe.yaml', 'groups.yaml', 'settings.yaml']);
    expect(state.settings).toEqual({ owner: 'mail-team', ignore: ['legacy-*'], prune: false });
    expect(state.monitors.length).toBeGreaterThanOrEqual(8);
    expect(state.monitors.length).toBeLessThanOrEqual(12);
    const allAlerts = [...state.alerts, ...state.monitors.flatMap((m) => m.alerts)];
    const destinations = new Set(allAlerts.flatMap((a) => a.alert_destinations));
    expect([...destinations].every((d) => ['ops-mail', 'oncall-sms', 'duty-voice'].includes(d))).toBe(true);
    const managed = new Set(state.monitors.map((m) => m.label));
    const unmanaged = ['www-http', 'gw-ping', 'dns-mx'];
    expect(state.alerts.map((a) => a.monitor)).toContain('www-http');
    expect(state.alerts.every((a) => unmanaged.includes(a.monitor))).toBe(true);
    for (const g of state.groups) expect((g.monitors ?? []).every((m) => managed.has(m) || unmanaged.includes(m))).toBe(true);
    // Defaults from settings.yaml reach monitors in the other files.
    expect(state.monitors.every((m) => m.spec.meta?.team === 'mail')).toBe(true);
  });

  it('every example file carries the schema modeline, resolving to the schema', () => {
    for (const dir of ['examples/small', 'examples/realistic']) {
      for (const f of readdirSync(path.join(root, dir)).filter((n) => n.endsWith('.yaml'))) {
        const first = readFileSync(path.join(root, dir, f), 'utf8').split('\n')[0]!;
        const m = /^# yaml-language-server: \$schema=(.+)$/.exec(first);
        expect(m, `${dir}/${f}`).not.toBeNull();
        expect(path.resolve(root, dir, m![1]!)).toBe(path.join(root, 'schemas/monsync.schema.json'));
      }
    }
  });
});
