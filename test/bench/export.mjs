/**
 * `monsync export` timed against an emulator process seeded with the bench account (account.mjs) of
 * 2,000 and 5,000 monitors, to `--out DIR` (one file per group) and `--out FILE`: wall time, median
 * of 3 runs after a warm-up. Usage: node test/bench/export.mjs [bin] (default bin/monsync.js).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { control, liveObjects, seedAccount } from './account.mjs';
import { startEmulatorProcess } from './emulator.mjs';

const BIN = resolve(process.argv[2] ?? 'bin/monsync.js');
const ENV = { ...process.env, MONSYNC_USERNAME: 'demo@example.com', MONSYNC_PASSWORD: 'demo-password', NO_COLOR: '1' };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const emulator = await startEmulatorProcess(BIN);
const { url } = emulator;
const work = mkdtempSync(join(tmpdir(), 'export-bench-'));
try {
  for (const monitors of [2000, 5000]) {
    await control(url, 'POST', 'reset', { seed: 'empty' });
    await seedAccount(url, liveObjects({ monitors, groups: Math.round(monitors / 20) }));
    for (const kind of ['dir', 'file']) {
      const times = [];
      for (let i = 0; i < 4; i++) {
        const out = join(work, `${kind}-${monitors}-${i}${kind === 'file' ? '.yaml' : ''}`);
        const t = performance.now();
        const r = spawnSync(process.execPath, [BIN, 'export', '--url', url, '--out', out], { env: ENV, encoding: 'utf8' });
        const ms = performance.now() - t;
        if (r.status !== 0) throw new Error(`export failed: ${r.stderr}`);
        if (i > 0) times.push(ms); // the first run warms the emulator
      }
      console.log(`${monitors} monitors --out ${kind}: median ${Math.round(median(times))} ms (${times.map(Math.round).join(', ')})`);
    }
  }
} finally {
  emulator.stop();
  rmSync(work, { recursive: true, force: true });
}
