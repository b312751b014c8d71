import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StateFileError, startEmulator } from '../../src/emulator/index.js';
import { apiCall, basicAuth } from '../helpers/emulator.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'monsync-emu-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const auth = basicAuth('demo@example.com', 'demo-password');
const client = (url: string) => ({ url, v1Auth: auth });

describe('state file', () => {
  it('keeps everything across a restart, id counters and clock included', async () => {
    const statePath = join(dir, 'state.json');
    const a = await startEmulator({ port: 0, statePath });
    const c = client(a.url);
    const m = (
      await apiCall(c, 'POST', '/v1/Config/Monitor/', {
        body: { type: 'smtp', label: 'kept', timer: 5, time_zone: 'UTC', ip_address: 'mx', test_account: 'p@example.com', meta: { k: 'v' } },
      })
    ).json.monitor;
    const al = (
      await apiCall(c, 'POST', '/v1/Config/Alert/', {
        body: { type: 'up-down', monitor: m.id, subject_init: 'd', subject_term: 'u', timeout: 5, alert_destinations: ['701'] },
      })
    ).json.alert;
    await apiCall(c, 'POST', '/v1/Config/Group/', { body: { name: 'g', monitors: [m.id] } });
    await apiCall(c, 'POST', `/v1/Pause/Monitor/${m.id}/`, { body: { seconds: 3600 } });
    await fetch(`${a.url}/_emulator/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"advance_seconds": 100}' });
    await fetch(`${a.url}/_emulator/alert-active`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ monitor: m.id, active: true }),
    });
    const before = await apiCall(c, 'GET', '/v1/Config/Monitor/');
    await a.close();

    const b = await startEmulator({ port: 0, statePath });
    try {
      const d = client(b.url);
      expect((await apiCall(d, 'GET', '/v1/Config/Monitor/')).json.monitor_list).toEqual(before.json.monitor_list);
      expect((await apiCall(d, 'GET', `/v1/Config/Alert/${al.id}/`)).json.alert).toEqual(al);
      const pauses = (await apiCall(d, 'GET', '/v1/Pause/Alert/')).json.alert_list;
      expect(pauses).toHaveLength(1);
      // Paused for an hour, then the clock moved on 100 s before the restart.
      expect(pauses[0].seconds).toBeGreaterThan(3490);
      expect(pauses[0].seconds).toBeLessThanOrEqual(3500);
      const status = (await apiCall(d, 'GET', '/v1/Status/')).json;
      expect(status.monitor_list.find((e: any) => e.id === m.id).alert_active).toBe(false);
      const clock = (await (await fetch(`${b.url}/_emulator/clock`)).json()) as { offset_seconds: number };
      expect(clock.offset_seconds).toBe(100);
      const next = await apiCall(d, 'POST', '/v1/Config/Group/', { body: { name: 'next' } });
      expect(next.json.group.id).toBe('302');
    } finally {
      await b.close();
    }
  });

  it('seeds a new state file and does not reseed an existing one', async () => {
    const statePath = join(dir, 's.json');
    const a = await startEmulator({ port: 0, statePath, seed: 'empty' });
    await a.close();
    const b = await startEmulator({ port: 0, statePath, seed: 'default' });
    expect(b.store.counts.monitors).toBe(0);
    await b.close();
  });

  it('refuses a corrupt or foreign state file with a clear message', async () => {
    const corrupt = join(dir, 'corrupt.json');
    writeFileSync(corrupt, '{"format": "monsync-emulator-state", "monitors": [');
    await expect(startEmulator({ port: 0, statePath: corrupt })).rejects.toThrow(StateFileError);
    await expect(startEmulator({ port: 0, statePath: corrupt })).rejects.toThrow(/state file .*corrupt\.json is corrupt \(not valid JSON/);
    const foreign = join(dir, 'foreign.json');
    writeFileSync(foreign, '{"hello": "world"}');
    await expect(startEmulator({ port: 0, statePath: foreign })).rejects.toThrow(/not a usable emulator state: not a monsync emulator state file/);
    // The files are left as they were.
    expect(readFileSync(foreign, 'utf8')).toBe('{"hello": "world"}');
  });

  it('fails to start when the state cannot be written', async () => {
    await expect(startEmulator({ port: 0, statePath: join(dir, 'missing', 'state.json') })).rejects.toThrow(
      /cannot write state file .*: no such file or directory/,
    );
    await expect(startEmulator({ port: 0, statePath: dir })).rejects.toThrow(/cannot read state file .*: it is a directory/);
  });

  it('coalesces a burst of writes and flushes on close, atomically', async () => {
    const statePath = join(dir, 'burst.json');
    const emu = await startEmulator({ port: 0, statePath, seed: 'empty' });
    const initialWrites = emu.persister!.writes;
    const c = client(emu.url);
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => apiCall(c, 'POST', '/v1/Config/Group/', { body: { name: `http${i}` } })),
    );
    // 1,000 more mutations spread over many event-loop turns, as a busy client would make them.
    for (let i = 0; i < 1000; i++) {
      emu.store.createGroup({ name: `g${i}` });
      if (i % 10 === 0) await new Promise((r) => setImmediate(r));
    }
    await emu.close();
    const dumps = emu.persister!.writes - initialWrites;
    expect(dumps).toBeGreaterThan(0);
    expect(dumps).toBeLessThan(100);
    const saved = JSON.parse(readFileSync(statePath, 'utf8')) as { groups: unknown[] };
    expect(saved.groups).toHaveLength(1100);
    expect(readdirSync(dir)).toEqual(['burst.json']);
  });
});
