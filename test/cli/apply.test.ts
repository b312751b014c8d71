/**
 * `monsync apply` in process: what the runner refuses before anything is read or sent, and its
 * confirmation prompt. (The built CLI applying against an emulator is in test/e2e/.)
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { confirmApply, runApply } from '../../src/cli/apply-run.js';
import { UserError } from '../../src/util/errors.js';
import { startTestEmulator } from '../helpers/emulator.js';
import { captureIo } from '../helpers/io.js';

describe('apply --plan FILE with plan-shaping options', () => {
  // `apply --plan FILE --target X` ran the whole saved plan: --target (and --prune) were silently
  // ignored, so with --auto-approve in CI apply did more than the command line asked for.
  it.each([
    [{ target: ['mx-*'] }],
    [{ prune: true }],
  ])('refuses %o before anything is read or sent', async (extra) => {
    const io = captureIo({});
    const run = runApply([], { plan: '/nonexistent/plan.json', parallelism: '8', autoApprove: true, url: 'http://127.0.0.1:9', ...extra }, io);
    await expect(run).rejects.toBeInstanceOf(UserError);
    await expect(run).rejects.toThrow(/--plan/);
    expect(io.stdout + io.stderr).toBe('');
  });
});

/** A terminal on both sides, as when a person runs apply: readline reads keys raw, so Ctrl-C is a byte. */
function terminal(): { input: PassThrough & { isTTY?: boolean }; output: PassThrough & { isTTY?: boolean } } {
  const input = new PassThrough() as PassThrough & { isTTY?: boolean };
  const output = new PassThrough() as PassThrough & { isTTY?: boolean };
  input.isTTY = true;
  output.isTTY = true;
  return { input, output };
}

describe('apply confirmation prompt', () => {
  // Ctrl-C at the prompt: readline turns it into an AbortError that reached main() as
  // "monsync: internal error: The operation was aborted" with exit 1; it is an interruption:
  // nothing was changed, and the documented exit code after Ctrl-C is 130.
  it('takes Ctrl-C as an interruption, not an error', { timeout: 5000 }, async () => {
    const { input, output } = terminal();
    const answer = confirmApply(input, output);
    setTimeout(() => input.write('\x03'), 5);
    await expect(answer).resolves.toBe('interrupted');
  });

  // Ctrl-D (end of input) at the prompt left the question unanswered: the process ended with no
  // message and exit 0. It is a "no": nothing applied, exit 1.
  it('takes Ctrl-D, the end of input, as "no", on a new line', { timeout: 5000 }, async () => {
    const { input, output } = terminal();
    let shown = '';
    output.on('data', (d: Buffer) => (shown += d.toString()));
    const answer = confirmApply(input, output);
    setTimeout(() => input.write('\x04'), 5);
    await expect(answer).resolves.toBe('no');
    expect(shown.endsWith('\n')).toBe(true);
    const piped = { input: new PassThrough(), output: new PassThrough() };
    const closed = confirmApply(piped.input, piped.output);
    setTimeout(() => piped.input.end(), 5);
    await expect(closed).resolves.toBe('no');
  });

  it('confirms on "yes" and declines on anything else', async () => {
    const a = terminal();
    const yes = confirmApply(a.input, a.output);
    a.input.write('yes\n');
    await expect(yes).resolves.toBe('yes');
    const b = terminal();
    const no = confirmApply(b.input, b.output);
    b.input.write('y\n');
    await expect(no).resolves.toBe('no');
  });
});

/** The lines a terminal shows after `text` was written to it: \r returns, ESC[2K clears the line. */
function screen(text: string): string[] {
  const rows: string[] = [''];
  for (const part of text.split(/(\r|\n|\x1b\[2K)/)) {
    if (part === '\n') rows.push('');
    else if (part === '\r' || part === '\x1b[2K') rows[rows.length - 1] = part === '\x1b[2K' ? '' : rows[rows.length - 1]!;
    else rows[rows.length - 1] += part;
  }
  return rows;
}

describe('apply in a terminal', () => {
  // In a terminal only the live line told what was being done, and it was erased at the end: a
  // successful apply left "Apply complete" and nothing listing what was done.
  it('leaves a line per change on the screen, as without a terminal; the live line is gone at the end', async () => {
    const emu = await startTestEmulator({ seed: 'default' });
    const dir = await mkdtemp(join(tmpdir(), 'monsync-apply-tty-'));
    const config = join(dir, 'monsync.yaml');
    await writeFile(
      config,
      'version: 1\ndefaults:\n  monitor: { timer: 5, time_zone: Europe/London, test_account: probe@example.com }\n' +
        'monitors:\n  - label: t-1\n    ip_address: mx1.example.com\n  - label: t-2\n    ip_address: mx2.example.com\n',
    );
    const io = captureIo({ MONSYNC_URL: emu.url, MONSYNC_USERNAME: 'demo@example.com', MONSYNC_PASSWORD: 'demo-password' }, { cwd: dir });
    const had = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
    Object.defineProperty(process.stdout, 'isTTY', { value: true, configurable: true });
    try {
      expect(await runApply([config], { parallelism: '1', autoApprove: true }, io)).toBe(0);
    } finally {
      if (had) Object.defineProperty(process.stdout, 'isTTY', had);
      else delete (process.stdout as { isTTY?: boolean }).isTTY;
      await emu.close();
      await rm(dir, { recursive: true, force: true });
    }
    const shown = screen(io.stdout).map((l) => l.replace(/\b\d+\.\d s\b/g, 'N s').replace(/\(id \d+\)/, '(id N)'));
    const from = shown.findIndex((l) => l.startsWith('Applying '));
    expect(shown.slice(from)).toEqual([
      'Applying 2 changes with parallelism 1',
      '  + monitor "t-1" created (id N) N s',
      '  + monitor "t-2" created (id N) N s',
      'Apply complete: 2 added, 0 changed, 0 destroyed in N s (2 requests, 0 retries).',
      'Checking ... No changes. The account matches the configuration.',
      '',
    ]);
  });
});
