/**
 * `validate` refuses every value the service refuses: whatever the loader accepts for a field
 * passes the service's own check of that field, as the emulator makes it (src/emulator/validate.ts).
 * Field by field and in process, so thousands of values are tried in a few seconds; the end-to-end
 * version (configurations applied to an emulator) is test/e2e/validate-accepts-apply.test.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { deliveryTargetProblem, testAccountProblem } from '../../src/config/service-values.js';
import { timeZoneProblem } from '../../src/config/timezone.js';
import type { DesiredState } from '../../src/model/desired.js';
import {
  isDeliveryTarget,
  isEmail,
  isKnownTimeZone,
  validateAlertBody,
  validateGroupBody,
  validateMonitorBody,
} from '../../src/emulator/validate.js';
import { NOT_WHITESPACE, WHITESPACE, edgeValues, someOf, yamlOf } from './edge-values.js';

const { name, MONITOR_FIELDS, ALERT_FIELDS } = edgeValues();

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'monsync-service-values-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The state `validate` would accept for this document, or undefined when it reports a problem. */
async function accepted(doc: unknown): Promise<DesiredState | undefined> {
  await writeFile(path.join(dir, 'c.yaml'), yamlOf(doc));
  const result = await loadConfig(['c.yaml'], { cwd: dir, env: {} });
  return 'state' in result ? result.state : undefined;
}

/** The service's answer to a body: undefined when it takes it, else its message. */
function refusal(check: () => unknown): string | undefined {
  try {
    check();
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

const LOOKUPS = { monitorType: () => 'smtp', hasDestination: () => true };

describe('what validate accepts, the service accepts', () => {
  it('monitor fields', async () => {
    let taken = 0;
    await fc.assert(
      fc.asyncProperty(name, someOf(MONITOR_FIELDS, ['ip_address', 'test_account', 'timer', 'time_zone']), async (label, fields) => {
        const state = await accepted({ version: 1, monitors: [{ label, ...fields }] });
        if (!state) return;
        taken++;
        const m = state.monitors[0]!;
        // As apply creates it: every field the configuration set, and the ownership marker.
        const body = { type: 'smtp', label: m.label, ...m.spec, meta: { ...m.spec.meta, 'managed-by': state.settings.owner } };
        expect(refusal(() => validateMonitorBody(body, 'create')), JSON.stringify(body)).toBeUndefined();
      }),
      { numRuns: 400 },
    );
    expect(taken).toBeGreaterThan(20);
  });

  it('alert fields, on monitors managed here and elsewhere', async () => {
    let taken = 0;
    await fc.assert(
      fc.asyncProperty(someOf(ALERT_FIELDS, ['subject_init', 'subject_term']), fc.boolean(), async (fields, topLevel) => {
        const alert = { timeout: 5, ...fields };
        const monitor = { label: 'mx', ip_address: 'mx', test_account: 'probe@example.com', timer: 5, time_zone: 'UTC' };
        const doc = topLevel
          ? { version: 1, alerts: [{ monitor: 'www-http', ...alert }] }
          : { version: 1, monitors: [{ ...monitor, alerts: [alert] }] };
        const state = await accepted(doc);
        if (!state) return;
        taken++;
        const { monitor: _label, source: _source, previous_subjects: _previous, ...a } = state.alerts[0] ?? state.monitors[0]!.alerts[0]!;
        const body = { type: 'up-down', monitor: '10001', ...a };
        expect(refusal(() => validateAlertBody(body, 'create', LOOKUPS)), JSON.stringify(body)).toBeUndefined();
      }),
      { numRuns: 400 },
    );
    expect(taken).toBeGreaterThan(20);
  });

  it('group names', async () => {
    await fc.assert(
      fc.asyncProperty(name, async (group) => {
        const state = await accepted({ version: 1, groups: [{ name: group }] });
        if (state) expect(refusal(() => validateGroupBody({ name: state.groups[0]!.name }, 'create', () => true))).toBeUndefined();
      }),
      { numRuns: 100 },
    );
  });

  it('text that is only whitespace, of any kind, is refused where the service needs a name', async () => {
    const text = fc.string({ unit: fc.constantFrom(...WHITESPACE, ...NOT_WHITESPACE), minLength: 1, maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(text, async (s) => {
        const alert = { subject_init: s, subject_term: s, timeout: 5 };
        const monitor = { label: s, ip_address: 'mx', test_account: 'probe@example.com', timer: 5, time_zone: 'UTC', alerts: [alert] };
        const state = await accepted({ version: 1, monitors: [monitor], groups: [{ name: s }] });
        // The service trims before it asks whether anything is left; validate refuses any whitespace
        // at either end of an identity (label, name, subject_init) too (issue 23).
        expect(state !== undefined, JSON.stringify(s)).toBe(s.trim() !== '' && !/^[\s\u200b-\u200d\u2060]|[\s\u200b-\u200d\u2060]$/.test(s));
      }),
      { numRuns: 150 },
    );
  });
});

describe('the service rules restated in src/config/service-values.ts', () => {
  const hostPart = fc.oneof(
    fc.stringMatching(/^[a-zA-Z0-9-]{1,8}$/),
    fc.constantFrom('', '_', ' ', 'a'.repeat(63), 'a'.repeat(64), '123', 'x:y', 'ü'),
  );
  const host = fc.oneof(
    fc.array(hostPart, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('.')),
    fc.array(hostPart, { minLength: 1, maxLength: 3 }).map((parts) => `${parts.join('.')}.`),
    fc.domain(),
    fc.ipV4(),
    fc.ipV6(),
    fc.ipV4Extended(),
    fc.constantFrom('mx', 'mx:failover', 'MX', `${'a.'.repeat(126)}ab`, `${'a.'.repeat(127)}ab`),
    fc.string({ maxLength: 12 }),
  );

  it('take exactly the delivery targets the service takes', () => {
    fc.assert(
      fc.property(host, (s) => {
        expect(deliveryTargetProblem(s) === undefined, JSON.stringify(s)).toBe(isDeliveryTarget(s));
      }),
      { numRuns: 3000 },
    );
  });

  it('take exactly the e-mail addresses the service takes', () => {
    const local = fc.oneof(
      fc.stringMatching(/^[a-zA-Z0-9.+_-]{1,10}$/),
      fc.constantFrom('', '.a', 'a.', 'a..b', 'p'.repeat(64), 'p'.repeat(65), 'a b', 'a@b', "!#$%&'*+/=?^_`{|}~-"),
    );
    const address = fc.oneof(
      fc.tuple(local, host).map(([l, h]) => `${l}@${h}`),
      fc.emailAddress(),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(address, (s) => {
        expect(testAccountProblem(s) === undefined, JSON.stringify(s)).toBe(isEmail(s));
      }),
      { numRuns: 3000 },
    );
  });

  it('take only time zones the service takes', () => {
    const known = Intl.supportedValuesOf('timeZone');
    const zone = fc.oneof(
      fc.constantFrom(...known),
      fc.constantFrom(...known).chain((z) => fc.constantFrom(z.toLowerCase(), z.toUpperCase(), `${z} `, z.replace('/', '/x'))),
      fc.constantFrom('UTC', 'utc', 'GMT', 'gmt', 'Zulu', 'US/Eastern', 'us/eastern', 'Etc/GMT+1', 'etc/gmt+1', 'EST5EDT', 'est5edt', '+01:00', '-05', 'Z', ''),
      fc.string({ maxLength: 10 }),
    );
    fc.assert(
      fc.property(zone, (z) => {
        if (timeZoneProblem(z) === undefined) expect(isKnownTimeZone(z), JSON.stringify(z)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
