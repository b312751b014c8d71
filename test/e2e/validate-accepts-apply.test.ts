/**
 * What `validate` accepts, the service accepts (issue 12 §5): random configurations, their values
 * often at the edges the service is strict about (blank text, boundary numbers, host names and
 * e-mail addresses at their limits, time zones written another way), go through the loader
 * validate runs; each one it accepts is applied by the real CLI to a fresh emulator account, and
 * no request may be answered 400, the apply must succeed and the account must then match.
 * The field-by-field version, with many more values, is test/config/service-values.test.ts.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { edgeValues, someOf, yamlOf } from '../config/edge-values.js';
import { buildCli, runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { Workspace, describeRequests } from './support.js';

const DESTINATIONS = ['ops-mail', 'pager'];
// Some thirty values a configuration: mostly edge values the service takes, few it refuses, so many are applied.
const { name, MONITOR_FIELDS, ALERT_FIELDS } = edgeValues({ ordinary: 80, fine: 20, bad: 1 });
const OTHER_MONITOR = 'www-http';

let emu: TestEmulator;
let ws: Workspace;
beforeAll(async () => {
  [emu, ws] = await Promise.all([startTestEmulator({ seed: 'empty' }), Workspace.create(), buildCli()]);
}, 300_000);
afterAll(async () => {
  await emu?.close();
  await ws?.remove();
});

const alertArb = someOf({ ...ALERT_FIELDS, alert_destinations: fc.subarray(DESTINATIONS) }, ['subject_init', 'subject_term', 'timeout']);
const monitorArb = fc.record({
  label: name,
  fields: someOf(MONITOR_FIELDS, ['ip_address', 'test_account', 'timer', 'time_zone']),
  alerts: fc.uniqueArray(alertArb, { maxLength: 2, selector: (a) => a.subject_init }),
});
const configArb = fc.record({
  // Labels and names are told apart by the generator: a repeated one is another test's business.
  monitors: fc.uniqueArray(monitorArb, { minLength: 1, maxLength: 3, selector: (m) => m.label }),
  topAlerts: fc.array(alertArb, { maxLength: 1 }),
  groups: fc.uniqueArray(fc.record({ name, members: fc.array(fc.nat(), { maxLength: 3 }) }), { maxLength: 2, selector: (g) => g.name }),
});
type Config = typeof configArb extends fc.Arbitrary<infer T> ? T : never;

function documentOf(c: Config): unknown {
  const labels = [...c.monitors.map((m) => m.label), OTHER_MONITOR];
  return {
    version: 1,
    monitors: c.monitors.map((m) => ({ label: m.label, ...m.fields, ...(m.alerts.length > 0 && { alerts: m.alerts }) })),
    ...(c.topAlerts.length > 0 && { alerts: c.topAlerts.map((a) => ({ monitor: OTHER_MONITOR, ...a })) }),
    ...(c.groups.length > 0 && {
      groups: c.groups.map((g) => ({ name: g.name, monitors: [...new Set(g.members.map((i) => labels[i % labels.length]))] })),
    }),
  };
}

let run = 0;

/**
 * Configurations that validate, run first (fast-check's `examples`): the property applies at least
 * these whatever the seed, so it can never pass having applied nothing, and no count of how many
 * random ones happened to validate is needed (issue 34: "expected 4 to be greater than 4").
 * Each keeps to edge values the service takes.
 */
const EXAMPLES: [Config][] = [
  [
    {
      monitors: [
        {
          label: 'Prüfung ✓',
          fields: { ip_address: 'xn--bcher-kva.example', test_account: `${'p'.repeat(64)}@example.com`, timer: 30, time_zone: 'Etc/GMT-14' },
          alerts: [{ subject_init: 'mx is DOWN', subject_term: ' up', timeout: 1, alert_destinations: ['pager'] }],
        },
        { label: 'in between', fields: { ip_address: '::1', test_account: 'a@b.c', timer: 3, time_zone: 'US/Eastern' }, alerts: [] },
      ],
      topAlerts: [{ subject_init: 'down', subject_term: '\u180e', timeout: Number.MAX_SAFE_INTEGER, alert_destinations: [] }],
      groups: [{ name: '"quoted"', members: [0, 1, 2] }],
    },
  ],
  [{ monitors: [{ label: 'mx-1', fields: { ip_address: 'mx', test_account: 'probe@example.com', timer: 5, time_zone: 'UTC' }, alerts: [] }], topAlerts: [], groups: [] }],
];

describe('property: configurations validate accepts', () => {
  it('are applied without a request the service refuses, and the account then matches', async () => {
    let applied = 0;
    await fc.assert(
      fc.asyncProperty(configArb, async (c) => {
        const text = yamlOf(documentOf(c));
        const file = await ws.write(`run-${++run}/monsync.yaml`, text);
        // What `monsync validate` runs; refused configurations are the other tests' business.
        const loaded = await loadConfig([file], { cwd: ws.dir, env: {} });
        if (!('state' in loaded)) {
          expect(applied, `an example does not validate:\n${text}`).toBeGreaterThanOrEqual(EXAMPLES.length);
          return;
        }
        applied++;

        await emu.control.reset('empty');
        await emu.control.seed({
          destinations: DESTINATIONS.map((label, i) => ({ label, destination: `d${i}@example.com`, type: 'email', subscribed: true })),
          monitors: [{ label: OTHER_MONITOR, type: 'HTTP', ip_address: 'www.example.com', timer: 5, time_zone: 'UTC', meta: {} }],
        });
        await emu.control.clearRequests();
        const result = await runCli(['apply', '--auto-approve', file], { url: emu.url, cwd: ws.dir });
        const refused = (await emu.control.requests()).filter((r) => r.status === 400);
        expect(describeRequests(refused), text).toEqual([]);
        expect(result.code, `${text}\n${result.stdout}\n${result.stderr}`).toBe(0);
        expect(result.stdout, text).toContain('No changes. The account matches the configuration.');
      }),
      { numRuns: Number(process.env.E2E_PROPERTY_RUNS ?? 24), endOnFailure: true, examples: EXAMPLES },
    );
    // The figure for the log: about half the random configurations keep to values the service takes.
    console.log(`applied ${applied} configurations validate accepted: the ${EXAMPLES.length} examples and ${applied - EXAMPLES.length} random ones`);
  }, 120_000);
});
