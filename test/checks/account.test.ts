/**
 * The checks that need the account, against the emulator: the account is read as plan reads it
 * (the real client, readLive), then the checks run on it. test/fixtures/checks/account.yaml says
 * which item is meant to raise what.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitoringClient } from '../../src/api/client.js';
import { runChecks } from '../../src/checks/index.js';
import { formatFinding } from '../../src/render/findings.js';
import { loadConfig } from '../../src/config/index.js';
import type { DesiredState } from '../../src/model/desired.js';
import type { LiveState } from '../../src/model/live.js';
import { readLive } from '../../src/plan/read-live.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'checks');

let emu: TestEmulator;
let desired: DesiredState;
let live: LiveState;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'default' });
  const api = new MonitoringClient({ baseUrl: emu.url, username: 'demo@example.com', password: 'demo-password' });
  const seeded = (await readLive(api)).live.monitors;
  const id = (label: string) => seeded.find((m) => m.label === label)!.id;
  await emu.control.seed({
    groups: [
      { name: 'infra', monitors: [id('gw-ping')] },
      { name: 'hollow', monitors: [] },
      { name: 'keeps-legacy', monitors: [id('legacy-mx')] },
      { name: 'cleared', monitors: [id('dns-mx')] },
    ],
  });
  live = (await readLive(api)).live;
  const r = await loadConfig(['account.yaml'], { cwd: FIXTURES, env: {} });
  if (!('state' in r)) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  desired = r.state;
});

afterAll(async () => {
  await emu?.close();
});

describe('checks with the account', () => {
  const lines = () => runChecks(desired, live).map(formatFinding);

  it('alert/unreachable: an alert whose every destination is unsubscribed; one subscribed destination is enough', () => {
    const unreachable = lines().filter((l) => l.includes('alert/unreachable'));
    expect(unreachable).toEqual([
      'account.yaml:15:9: warning alert/unreachable: alert "mx-1 to nobody subscribed" on monitor "mx-1" sends only to "legacy-mail", and it is unsubscribed: its messages are recorded, not delivered',
    ]);
  });

  it("alert/timeout-below-timer and alert/timeout-at-timer on top-level alerts, against the live monitor's timer (www-http's is the string \"5\")", () => {
    expect(lines().filter((l) => l.includes('alert/timeout-'))).toEqual([
      'account.yaml:22:5: warning alert/timeout-below-timer: alert "www is DOWN" on monitor "www-http" has a timeout of 3 minutes, shorter than the monitor\'s timer of 5 minutes: it triggers between two tests, every interval, though no test failed',
      'account.yaml:26:5: warning alert/timeout-at-timer: alert "dns is DOWN" on monitor "dns-mx" has a timeout of 10 minutes, the monitor\'s timer: any reply slower than the one before triggers it though no test failed; make it longer than the timer',
    ]);
  });

  it('group/empty: unlisted members and none live, not yet created, or an empty list no ignored monitor stays in', () => {
    expect(lines().filter((l) => l.includes('group/empty'))).toEqual([
      'account.yaml:36:5: warning group/empty: group "hollow" does not list its monitors and has none in the account',
      'account.yaml:37:5: warning group/empty: group "brand-new" does not list its monitors and is not in the account yet: it is created with no members',
      'account.yaml:40:5: warning group/empty: group "cleared" has no members',
    ]);
  });

  it('raises nothing else, and without the account none of the checks that need it', () => {
    expect(lines()).toHaveLength(6);
    expect(runChecks(desired)).toEqual([]);
  });
});
