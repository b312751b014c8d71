/**
 * `apply` in a real terminal: a pseudo-terminal made by `script` (util-linux, on every Debian
 * machine), so stdin, stdout and stderr are all TTYs as for a person typing. The account read is
 * slowed by the emulator's latency fault: the line names the account before the answers arrive and
 * shows time passing; the question names the account; "yes" typed at the terminal applies.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, cliEnv } from '../helpers/cli.js';
import type { TestEmulator } from '../helpers/emulator.js';
import { Workspace, configYaml, e2eSuite } from './support.js';

let emu: TestEmulator;
let ws: Workspace;

e2eSuite((e, w) => {
  emu = e;
  ws = w;
});

/** Runs `args` in a pseudo-terminal; `type` writes what a person types; `screen()` is what was shown. */
function inTerminal(args: string[], cwd: string, url: string) {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  // -q: no "Script started" lines; -f: flush at once; -e: the command's exit code; -c: the command.
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd, env: { ...cliEnv(url), COLUMNS: '120', LINES: '40', TERM: 'xterm' } });
  let shown = '';
  child.stdout.on('data', (d: Buffer) => (shown += d.toString()));
  child.stderr.on('data', (d: Buffer) => (shown += d.toString()));
  const done = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  const waitFor = (pattern: RegExp, ms = 20_000) =>
    new Promise<void>((resolve, reject) => {
      const t0 = Date.now();
      const poll = setInterval(() => {
        if (pattern.test(shown)) {
          clearInterval(poll);
          resolve();
        } else if (Date.now() - t0 > ms) {
          clearInterval(poll);
          reject(new Error(`not shown within ${ms} ms: ${pattern}\n${JSON.stringify(shown)}`));
        }
      }, 20);
    });
  return { child, done, waitFor, screen: () => shown, type: (s: string) => child.stdin.write(s) };
}

describe('apply at a terminal', () => {
  it('names the account before a slow read and shows time passing, asks naming it, and applies on "yes"', async () => {
    await ws.write('tty/monsync.yaml', configYaml({ monitors: [{ label: 'tty-1' }, { label: 'tty-2' }] }));
    // Each request answered 1.2 s late: the read takes over a second, the spinner's threshold is 0.3 s.
    await emu.control.faults({ latency_ms: 1200 });
    const run = inTerminal(['apply'], ws.path('tty'), emu.url);
    const head = `Reading account ${emu.url} (demo@example.com) ... `;
    try {
      await run.waitFor(/Only "yes" will be accepted: (\x1b\[\d+G)?$/);
      await emu.control.clearFaults();
      const before = run.screen();
      // The head first, alone, before any answer came; then the spinner redrawn after it, then the counts.
      expect(before).toContain(head);
      expect(before).toMatch(new RegExp(`${escape(head)}[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] [0-9]+ s`));
      expect(before).toMatch(new RegExp(`\\r\\x1b\\[2K${escape(head)}\\d+ monitors \\(\\d+ SMTP\\)`));
      expect(before).toContain(`Apply 2 changes to ${emu.url} (demo@example.com)? Only "yes" will be accepted: `);
      run.type('yes\r');
      expect(await run.done).toBe(0);
    } finally {
      run.child.kill();
      await emu.control.clearFaults();
    }
    expect(run.screen()).toMatch(/Apply complete: 2 added, 0 changed, 0 destroyed/);
    expect(run.screen()).toContain('Checking ... No changes.');
  }, 60_000);

  it('Ctrl-C at the question changes nothing: exit 130', async () => {
    await ws.write('tty-c/monsync.yaml', configYaml({ monitors: [{ label: 'tty-c' }] }));
    const run = inTerminal(['apply'], ws.path('tty-c'), emu.url);
    try {
      await run.waitFor(/Only "yes" will be accepted: (\x1b\[\d+G)?$/);
      run.type('\x03');
      expect(await run.done).toBe(130);
    } finally {
      run.child.kill();
    }
    expect(run.screen()).toContain('Apply cancelled; nothing was changed.');
  }, 60_000);
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
