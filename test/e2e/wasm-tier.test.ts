/**
 * undici's HTTP parser (llhttp, WebAssembly) stays at V8's baseline tier in monsync's processes on
 * the Node lines where that gains (src/api/wasm-tier.ts: 20 and 22; issue 43 measured 24 and 26
 * without a gain). V8's own trace of WebAssembly compiles (`--trace-wasm-compilation-times`) shows
 * which tier ran.
 */
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { baselineWasmFlag } from '../../src/api/wasm-tier.js';
import { BIN, ROOT, buildCli, cliEnv, expectCleanOutput, type CliResult } from '../helpers/cli.js';
import { startTestEmulator } from '../helpers/emulator.js';

const SMALL = join(ROOT, 'examples', 'small');

/** The pinned Node 22 (scripts/node-line.mjs), a line where the flag is set whatever node runs the suite. */
const NODE_22 = execFileSync(process.execPath, [join(ROOT, 'scripts', 'node-line.mjs'), '22'], { encoding: 'utf8' }).trim();

/** The CLI under `node22 <nodeFlags> bin/monsync.js args`, against the url. */
function runWithNodeFlags(nodeFlags: string[], args: string[], url: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE_22, [...nodeFlags, BIN, ...args], { cwd: ROOT, env: cliEnv(url), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

beforeAll(async () => {
  await buildCli();
}, 300_000);

describe('the HTTP parser stays at the baseline tier', () => {
  it('is never compiled by the optimising compiler during a plan on Node 22, and the plan is the same', async () => {
    const emu = await startTestEmulator({ seed: 'default' });
    try {
      const traced = await runWithNodeFlags(['--trace-wasm-compilation-times'], ['plan', SMALL], emu.url);
      expect(traced.code).toBe(0);
      const both = `${traced.stdout}\n${traced.stderr}`;
      // The trace shows the parser compiled, so its absence below is not a trace that printed nothing.
      expect(both).toMatch(/Compiled function \S+ using Liftoff/);
      expect(both).not.toMatch(/Compiled function \S+ using TurboFan/);
      expect(both).not.toMatch(/unrecognized flag/);

      const plain = await runWithNodeFlags([], ['plan', SMALL], emu.url);
      expectCleanOutput(plain);
      expect(plain.code).toBe(0);
      expect(plain.stderr).not.toMatch(/flag/);
      // The plan text itself (the trace's lines aside) is what an untraced run prints.
      expect(traced.stdout.split('\n').filter((l) => !l.startsWith('Compiled ')).join('\n')).toBe(plain.stdout);
    } finally {
      await emu.close();
    }
  });
});

describe('baselineWasmFlag', () => {
  it('names the flag on the Node lines where it gains (20 and 22), and nothing on 24, 26 or others', () => {
    expect(baselineWasmFlag('20.18.0')).toBe('--liftoff-only');
    expect(baselineWasmFlag('22.12.0')).toBe('--liftoff-only');
    expect(baselineWasmFlag('24.22.3')).toBeNull();
    expect(baselineWasmFlag('26.12.1')).toBeNull();
    expect(baselineWasmFlag('19.9.0')).toBeNull();
  });
});
