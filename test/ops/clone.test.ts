/**
 * The copy behind `monsync emulator --clone-from` (src/ops/clone.ts): an account read through the
 * client and handed to a new emulator reads back the same, quirks and all made canonical, with the
 * same fingerprint; the original only ever sees GET requests. In-process and fast; the command
 * itself and its plans are tested in test/e2e/first-contact.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitoringClient } from '../../src/api/client.js';
import { DEFAULT_CREDENTIALS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { copyOf } from '../../src/ops/clone.js';
import { readAccountCopy } from '../../src/workflow/clone.js';
import { commandContext } from '../../src/workflow/context.js';
import { captureIo } from '../helpers/io.js';
import { readLive } from '../../src/plan/read-live.js';
import { fingerprintLive } from '../../src/plan/fingerprint.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

let original: TestEmulator;
const started: RunningEmulator[] = [];

beforeAll(async () => {
  original = await startTestEmulator({ seed: 'default' });
});
afterAll(async () => {
  await Promise.all(started.map((e) => e.close()));
  await original.close();
});

const client = (url: string) => new MonitoringClient({ baseUrl: url, username: DEFAULT_CREDENTIALS.v1.user, password: DEFAULT_CREDENTIALS.v1.password });

/** The command context of the account at `url`, as `emulator --clone-from URL` opens it. */
const contextOf = (url: string) => commandContext(captureIo({ MONSYNC_USERNAME: DEFAULT_CREDENTIALS.v1.user, MONSYNC_PASSWORD: DEFAULT_CREDENTIALS.v1.password }), [], { url });

async function live(url: string) {
  const c = client(url);
  try {
    return (await readLive(c)).live;
  } finally {
    await c.close();
  }
}

describe('an account copy', () => {
  it('reads back from a new emulator exactly as from the original: ids, types, meta, memberships, fingerprint', async () => {
    const s = await original.control.seed({
      destinations: [{ id: 9001, label: 'pager', destination: '+15555550123', type: 'SMS' }],
      monitors: [
        { label: 'api', type: 'HTTP', hostname: 'api.example.com', timer: '10', meta: [] },
        { label: 'mx-owned', type: 'smtp', ip_address: 'mx', test_account: 'p@example.org', timer: 5, time_zone: 'UTC', attachment: '', meta: { 'managed-by': 'team-a', region: 'eu' }, alerts: [], groups: [] },
      ],
    });
    await original.control.seed({
      alerts: [
        { monitor: s.monitors[0], type: 'Up/Down Alert', subject_init: 'api down', subject_term: 'api up', alert_destinations: ['9001'], repeat: 1 },
        { monitor: s.monitors[1], type: 'up-down', subject_init: 'mx down', subject_term: 'mx up', timeout: 15 },
      ],
      groups: [{ name: 'mixed', monitors: [s.monitors[0], s.monitors[1]] }],
    });
    await original.control.clearRequests();

    const { copy, requests } = await readAccountCopy(contextOf(original.url));
    expect((await original.control.requests()).map((r) => r.method)).toEqual(Array(requests).fill('GET'));

    const replica = await startEmulator({ host: '127.0.0.1', port: 0, account: copy });
    started.push(replica);
    const [a, b] = [await live(original.url), await live(replica.url)];
    expect(b).toEqual(a);
    expect(fingerprintLive(b)).toBe(fingerprintLive(a));
    // The api monitor does not report its groups in either; the copy carries no wire quirk but the type.
    expect(b.monitors.find((m) => m.label === 'api')?.groups).toBeNull();
    expect(copy.monitors.find((m) => m['label'] === 'api')).toMatchObject({ type: 'HTTP', ip_address: 'api.example.com', timer: 10 });

    // A reset without a seed name returns to the copy.
    await fetch(`${replica.url}/_emulator/seed`, { method: 'POST', body: JSON.stringify({ groups: [{ name: 'extra' }] }), headers: { 'content-type': 'application/json' } });
    await fetch(`${replica.url}/_emulator/reset`, { method: 'POST' });
    expect(await live(replica.url)).toEqual(a);
  });

  // The replica answered `http`, `ping`, `dns-query` (monsync's canonical forms) where the original
  // answered `HTTP`, `Ping`, `DNS Query`: a script reading the replica saw another service.
  it('answers each monitor type as the original sent it, on the config list and the status pages', async () => {
    await original.control.reset('default');
    const { copy } = await readAccountCopy(contextOf(original.url));
    const replica = await startEmulator({ host: '127.0.0.1', port: 0, account: copy });
    started.push(replica);
    const types = async (url: string, path: string, list: string) => {
      const res = await fetch(`${url}${path}`, { headers: { authorization: original.v1Auth } });
      const body = (await res.json()) as Record<string, { id: string; type: string }[]>;
      return body[list]!.map((m) => `${m.id} ${m.type}`).sort();
    };
    const wire = await types(original.url, '/v1/Config/Monitor/', 'monitor_list');
    expect(wire.map((t) => t.replace(/^\S+ /, '')).sort()).toEqual(['DNS Query', 'HTTP', 'Ping', 'smtp']);
    expect(await types(replica.url, '/v1/Config/Monitor/', 'monitor_list')).toEqual(wire);
    expect(await types(replica.url, '/v1/Status/', 'monitor_list')).toEqual(await types(original.url, '/v1/Status/', 'monitor_list'));
  });

  it('holds only JSON values, so a state file or the control API can carry it', async () => {
    const a = await live(original.url);
    expect(copyOf(a)).toEqual(JSON.parse(JSON.stringify(copyOf(a))));
  });
});
