/**
 * "Nothing is ever created twice by one apply" whatever status a create is answered with. A gateway
 * in front of the service (a lying proxy) forwards every second create, lets the service make it,
 * and answers 429 with Retry-After: 1 instead of the service's answer. 429 says "nothing done",
 * but here it was done: apply must look the create up before it sends it again, and so end with
 * exactly the declared monitors, alerts and groups, exit 0, and a plan with nothing to do.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import type { TestEmulator } from '../helpers/emulator.js';
import { startLyingProxy } from '../helpers/lying-proxy.js';
import { apiCall } from '../helpers/emulator.js';
import { configYaml, e2eSuite, expectNoDuplicates, managed, state, type Workspace } from './support.js';

let emu: TestEmulator;
let ws: Workspace;

e2eSuite((e, w) => {
  emu = e;
  ws = w;
});

const label = (i: number) => `lim-${String(i).padStart(2, '0')}`;

/** The reproducer: 20 monitors with one alert each, and 2 groups. */
const CONFIG = configYaml({
  monitors: Array.from({ length: 20 }, (_, i) => ({ label: label(i), alerts: [{ subject_init: `${label(i)} is DOWN` }] })),
  groups: [
    { name: 'lim-even', monitors: Array.from({ length: 10 }, (_, i) => label(2 * i)) },
    { name: 'lim-odd', monitors: Array.from({ length: 10 }, (_, i) => label(2 * i + 1)) },
  ],
});

describe('a create answered 429 after the service made it', () => {
  it('is looked up before it is sent again: apply makes each monitor, alert and group once and exits 0', async () => {
    const config = await ws.write('create-429/monsync.yaml', CONFIG);
    const proxy = await startLyingProxy(emu.url, [
      {
        method: 'POST',
        path: /^\/v1\/Config\/(Monitor|Alert|Group)\/?$/,
        every: 2,
        answer: { status: 429, headers: { 'retry-after': '1' }, body: { error: 'Too many requests' } },
      },
    ]);
    let r;
    try {
      r = await runCli(['apply', config, '--auto-approve'], { url: proxy.url, timeoutMs: 180_000 });
    } finally {
      await proxy.close();
    }
    // The proxy did lie: creates were answered 429 after the service had made them.
    expect(proxy.lied.size, 'no create was answered 429').toBeGreaterThan(0);
    const s = await state(emu);
    expectNoDuplicates(s);
    expect(managed(s, 'e2e')).toHaveLength(20);
    expect(s.groups.filter((g) => g.name.startsWith('lim-'))).toHaveLength(2);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const again = await runCli(['plan', config, '--detailed-exitcode'], { url: emu.url });
    expect(again.code, again.stdout + again.stderr).toBe(0);
  }, 240_000);
});

describe('a create answered 429 after the service made it, and renamed before the answer (issue 45)', () => {
  it('is not sent again: the lookup finds the renamed monitor this apply made; apply exits 4 naming it, one monitor made', async () => {
    const config = await ws.write('create-429-renamed/monsync.yaml', configYaml({ monitors: [{ label: 'mx-lost' }] }));
    const proxy = await startLyingProxy(emu.url, [
      {
        method: 'POST',
        path: /^\/v1\/Config\/Monitor\/?$/,
        times: 1,
        answer: { status: 429, headers: { 'retry-after': '1' }, body: { error: 'Too many requests' } },
        // Someone renames the new monitor in the web UI between the create and its (lost) answer.
        beforeAnswer: async (made) => {
          const id = (made['monitor'] as { id: string }).id;
          await apiCall(emu, 'PUT', `/v1/Config/Monitor/${id}/`, { body: { label: 'mx-renamed-by-hand' } });
        },
      },
    ]);
    let r;
    try {
      r = await runCli(['apply', config, '--auto-approve'], { url: proxy.url, timeoutMs: 120_000 });
    } finally {
      await proxy.close();
    }
    expect(proxy.lied.size).toBe(1);
    const mine = managed(await state(emu), 'e2e');
    // One monitor made, under the label someone gave it: no second create.
    expect(mine.map((m) => m.label)).toEqual(['mx-renamed-by-hand']);
    expect(r.code, r.stdout + r.stderr).toBe(4);
    expect(r.stdout + r.stderr).toContain('is now labelled "mx-renamed-by-hand": someone renamed it before the answer came; monsync did not create it again');
  }, 180_000);
});
