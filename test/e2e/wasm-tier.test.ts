/**
 * undici's HTTP parser (llhttp, WebAssembly) stays at V8's baseline tier in monsync's processes
 * (src/api/wasm-tier.ts, issue 20): its optimising compile cost every plan, small or large, up to
 * half a second of a background thread and 42 MB of memory, for a parser that only reads headers.
 * V8's own trace of WebAssembly compiles (`--trace-wasm-compilation-times`) shows which tier ran.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { INTERRUPT_BUDGET, baselineWasmFlag, tieringFlags } from '../../src/api/wasm-tier.js';
import { BIN, ROOT, buildCli, cliEnv, expectCleanOutput, type CliResult } from '../helpers/cli.js';
import { startTestEmulator } from '../helpers/emulator.js';

const SMALL = join(ROOT, 'examples', 'small');

/** The CLI under `node <nodeFlags> bin/monsync.js args`, against the url. */
function runWithNodeFlags(nodeFlags: string[], args: string[], url: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, BIN, ...args], { cwd: ROOT, env: cliEnv(url), stdio: ['ignore', 'pipe', 'pipe'] });
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
  it('is never compiled by the optimising compiler during a plan, and the plan is the same', async () => {
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

      // Under a budget the user gave node (tieringFlags, below, then sets only the WebAssembly flag): the same plan, nothing on stderr about flags.
      const own = await runWithNodeFlags(['--interrupt-budget=100000'], ['plan', SMALL], emu.url);
      expectCleanOutput(own);
      expect(own.code).toBe(0);
      expect(own.stderr).not.toMatch(/flag/);
      expect(own.stdout).toBe(plain.stdout);
    } finally {
      await emu.close();
    }
  });
});

describe('baselineWasmFlag', () => {
  it('names the flag on the Node versions whose V8 has it, and nothing elsewhere', () => {
    expect(baselineWasmFlag('20.18.0')).toBe('--liftoff-only');
    expect(baselineWasmFlag('24.1.0')).toBe('--liftoff-only');
    expect(baselineWasmFlag('19.9.0')).toBeNull();
    expect(baselineWasmFlag('25.0.0')).toBeNull();
    expect(baselineWasmFlag(process.versions.node)).toBe('--liftoff-only');
  });
});

describe('tieringFlags', () => {
  it('adds the larger interrupt budget to the WebAssembly flag in one string on Node 20, the only V8 that has it', () => {
    expect(tieringFlags('20.18.0')).toBe(`--liftoff-only --interrupt-budget=${INTERRUPT_BUDGET}`);
    // Node 22's and 24's V8 have no --interrupt-budget (`node --v8-options`): only the WebAssembly flag.
    expect(tieringFlags('22.12.0')).toBe('--liftoff-only');
    expect(tieringFlags('24.1.0')).toBe('--liftoff-only');
    expect(tieringFlags('19.9.0')).toBeNull();
    expect(tieringFlags('25.0.0')).toBeNull();
    // Larger than V8's default (66 KB on Node 20, 132 KB later): the point of setting it.
    expect(INTERRUPT_BUDGET).toBeGreaterThan(132 * 1024);
  });

  it("leaves a budget the user gave node (its flags or NODE_OPTIONS, either spelling) alone: only the WebAssembly flag", () => {
    expect(tieringFlags('20.18.0', '--interrupt-budget=100000')).toBe('--liftoff-only');
    expect(tieringFlags('22.11.0', '--max-old-space-size=4096 --interrupt_budget=5000')).toBe('--liftoff-only');
    expect(tieringFlags('20.18.0', '--max-old-space-size=4096 --enable-source-maps')).toBe(`--liftoff-only --interrupt-budget=${INTERRUPT_BUDGET}`);
    expect(tieringFlags('19.9.0', '--interrupt-budget=100000')).toBeNull();
  });
});
