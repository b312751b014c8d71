/**
 * `export --out DIR` stopped half way (issue 23, item 6): SIGTERM (a CI system's cancel) left 62 of
 * 402 files and a `.tmp` file, without a word, and a plan of that directory then wanted to destroy
 * most of the account. The export is written to a temporary directory next to DIR and moved into
 * place whole; a signal removes it, says so and exits 143 (SIGTERM) or 130 (SIGINT).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCli, type CliResult } from '../helpers/cli.js';
import type { TestEmulator } from '../helpers/emulator.js';
import { Workspace, e2eSuite, smtpSeed } from './support.js';

let emu: TestEmulator;
let ws: Workspace;
e2eSuite((e, w) => {
  emu = e;
  ws = w;
});

const GROUPS = 400;
const PER_GROUP = 10;

/** 4,000 unmanaged SMTP monitors in 400 groups: an export of 402 files. */
async function seedLargeAccount(): Promise<void> {
  const monitors = Array.from({ length: GROUPS * PER_GROUP }, (_, i) => smtpSeed(`mx-${String(i).padStart(4, '0')}`));
  const ids = (await emu.control.seed({ monitors })).monitors as string[];
  const groups = Array.from({ length: GROUPS }, (_, g) => ({ name: `site-${String(g).padStart(3, '0')}`, monitors: ids.slice(g * PER_GROUP, (g + 1) * PER_GROUP) }));
  await emu.control.seed({ groups });
}

/** Starts `export --out <name>` in the workspace and sends `signal` once it has begun writing (a temporary directory, or the target itself). */
async function exportStoppedWhileWriting(name: string, signal: NodeJS.Signals, extra: string[] = []): Promise<CliResult> {
  const run = startCli(['export', '--out', name, ...extra], { url: emu.url, cwd: ws.dir, timeoutMs: 120_000 });
  const before = existsSync(ws.path(name)) ? readdirSync(ws.path(name)).length : -1;
  await new Promise<void>((resolve, reject) => {
    const poll = setInterval(() => {
      const temp = readdirSync(ws.dir).some((n) => n.startsWith(`.${name}.`));
      const grown = existsSync(ws.path(name)) && readdirSync(ws.path(name)).length !== before;
      if (temp || grown) {
        clearInterval(poll);
        run.child.kill(signal);
        resolve();
      }
    }, 1);
    run.child.on('close', () => {
      clearInterval(poll);
      reject(new Error(`export finished before it could be stopped:\n${run.output().stderr}`));
    });
  });
  return run.done;
}

const tempLeft = (name: string) => readdirSync(ws.dir).filter((n) => n.startsWith(`.${name}.`));

describe('export --out DIR stopped while writing', () => {
  it('SIGTERM: exit 143, says so, no directory and no temporary file left; a full export then writes all 402 files', async () => {
    await seedLargeAccount();
    const r = await exportStoppedWhileWriting('fresh', 'SIGTERM');
    expect(r.code, r.stderr).toBe(143);
    expect(r.stderr).toMatch(/Interrupted by SIGTERM: export stopped; fresh is as it was \(removed the temporary \.fresh\.export-\d+\.tmp\)\.\n$/);
    expect(existsSync(ws.path('fresh'))).toBe(false);
    expect(tempLeft('fresh')).toEqual([]);

    const full = await runCli(['export', '--out', 'fresh'], { url: emu.url, cwd: ws.dir, timeoutMs: 120_000 });
    expect(full.code, full.stderr).toBe(0);
    expect(readdirSync(ws.path('fresh'))).toHaveLength(GROUPS + 2);
    expect(tempLeft('fresh')).toEqual([]);
  }, 240_000);

  it('SIGINT into an existing export (--force): exit 130, the directory holds exactly what it held', async () => {
    await seedLargeAccount();
    const first = await runCli(['export', '--out', 'kept'], { url: emu.url, cwd: ws.dir, timeoutMs: 120_000 });
    expect(first.code, first.stderr).toBe(0);
    const snapshot = () => Object.fromEntries(readdirSync(ws.path('kept')).sort().map((n) => [n, readFileSync(join(ws.path('kept'), n), 'utf8')]));
    const before = snapshot();
    // The account changed since: a finished export would rewrite files.
    await emu.control.seed({ monitors: [smtpSeed('mx-new')] });
    const r = await exportStoppedWhileWriting('kept', 'SIGINT', ['--force']);
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('Interrupted by SIGINT: export stopped; kept is as it was');
    expect(snapshot()).toEqual(before);
    expect(tempLeft('kept')).toEqual([]);
  }, 240_000);
});
