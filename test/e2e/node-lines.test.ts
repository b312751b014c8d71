/**
 * A command that talks to the service prints on stderr, on each supported Node line (22, 24, 26, each
 * the pinned binary of scripts/node-line.mjs), no error or warning line that it does not print on the
 * others (issue 43: `Error: unrecognized flag --interrupt-budget=600000` on 22 and 24, from a V8 flag
 * set at run time that only Node 20's V8 had). The machine's own node runs beside them.
 */
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, buildCli, cliEnv, expectCleanOutput, type CliResult } from '../helpers/cli.js';
import { startTestEmulator } from '../helpers/emulator.js';

const SMALL = join(ROOT, 'examples', 'small');
const LINES = ['22', '24', '26'] as const;

/** The pinned node of a line (fetched once into the cache; a line that cannot be had fails the test). */
function nodeOf(line: string): string {
  return execFileSync(process.execPath, [join(ROOT, 'scripts', 'node-line.mjs'), line], { encoding: 'utf8' }).trim();
}

function run(node: string, args: string[], url: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [BIN, ...args], { cwd: ROOT, env: cliEnv(url), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** The lines of stderr that read as an error or a warning (V8's and Node's own included). */
function complaints(stderr: string): string[] {
  return stderr.split('\n').filter((l) => /error|warning|unrecognized|deprecat/i.test(l));
}

beforeAll(async () => {
  await buildCli();
}, 300_000);

describe('the supported Node lines', () => {
  it('print no error or warning on stderr for a plan that one line prints and another does not', async () => {
    const nodes = new Map<string, string>([['own', process.execPath]]);
    for (const line of LINES) nodes.set(line, nodeOf(line));
    const emu = await startTestEmulator({ seed: 'default' });
    try {
      const results = new Map<string, CliResult>();
      for (const [line, node] of nodes) results.set(line, await run(node, ['plan', SMALL], emu.url));
      const own = results.get('own')!;
      for (const [line, r] of results) {
        expectCleanOutput(r);
        expect(r.code, `Node ${line}: ${r.stderr}`).toBe(own.code);
        expect(r.stdout, `Node ${line}`).toBe(own.stdout);
        // A complaint is a line's own when any other line does not print it.
        const others = [...results].filter(([l]) => l !== line).map(([, o]) => new Set(complaints(o.stderr)));
        expect(complaints(r.stderr).filter((c) => others.some((o) => !o.has(c))), `Node ${line} prints, and another line does not`).toEqual([]);
        expect(r.stderr, `Node ${line}`).not.toMatch(/unrecognized flag/);
      }
    } finally {
      await emu.close();
    }
  }, 120_000);
});
