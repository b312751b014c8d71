/**
 * `monsync apply` in process: what the runner refuses before anything is read or sent, and its
 * confirmation prompt. (The built CLI applying against an emulator is in test/e2e/.)
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runApply } from '../../src/cli/apply.js';
import { askYes } from '../../src/cli/terminal.js';
import { UsageError, UserError } from '../../src/util/errors.js';
import { startTestEmulator } from '../helpers/emulator.js';
import { captureIo, lines } from '../helpers/io.js';

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
    const answer = askYes(input, output, 'Apply? ');
    setTimeout(() => input.write('\x03'), 5);
    await expect(answer).resolves.toBe('interrupted');
  });

  // Ctrl-D (end of input) at the prompt left the question unanswered: the process ended with no
  // message and exit 0. It is a "no": nothing applied, exit 1.
  it('takes Ctrl-D, the end of input, as "no", on a new line', { timeout: 5000 }, async () => {
    const { input, output } = terminal();
    let shown = '';
    output.on('data', (d: Buffer) => (shown += d.toString()));
    const answer = askYes(input, output, 'Apply? ');
    setTimeout(() => input.write('\x04'), 5);
    await expect(answer).resolves.toBe('no');
    expect(shown.endsWith('\n')).toBe(true);
    const piped = { input: new PassThrough(), output: new PassThrough() };
    const closed = askYes(piped.input, piped.output, 'Apply? ');
    setTimeout(() => piped.input.end(), 5);
    await expect(closed).resolves.toBe('no');
  });

  it('confirms on "yes" and declines on anything else', async () => {
    const a = terminal();
    const yes = askYes(a.input, a.output, 'Apply? ');
    a.input.write('yes\n');
    await expect(yes).resolves.toBe('yes');
    const b = terminal();
    const no = askYes(b.input, b.output, 'Apply? ');
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
    const io = captureIo({ MONSYNC_URL: emu.url, MONSYNC_USERNAME: 'demo@example.com', MONSYNC_PASSWORD: 'demo-password' }, { cwd: dir, columns: 100 });
    try {
      expect(await runApply([config], { parallelism: '1', autoApprove: true }, io)).toBe(0);
    } finally {
      await emu.close();
      await rm(dir, { recursive: true, force: true });
    }
    const shown = screen(io.stdout).map((l) => l.replace(/\b\d+\.\d s\b/g, 'N s').replace(/\(id \d+\)/, '(id N)'));
    const from = shown.findIndex((l) => l.startsWith('Applying '));
    expect(shown.slice(from)).toEqual([
      'Applying 2 changes with parallelism 1',
      '  + monitor "t-1" created (id N)',
      '  + monitor "t-2" created (id N)',
      'Apply complete: 2 added, 0 changed, 0 destroyed in N s (2 requests, 0 retries).',
      'Checking ... No changes. The account matches the configuration.',
      '',
    ]);
  });
});

describe('apply in process, through CommandIo', () => {
  let emu: Awaited<ReturnType<typeof startTestEmulator>>;
  let dir: string;
  const N = 6;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: 'default' });
    dir = await mkdtemp(join(tmpdir(), 'monsync-apply-io-'));
    const monitors = Array.from({ length: N }, (_, i) => `  - label: io-${i + 1}\n    ip_address: mx${i + 1}.example.com\n`).join('');
    await writeFile(
      join(dir, 'monsync.yaml'),
      `version: 1\ndefaults:\n  monitor: { timer: 5, time_zone: Europe/London, test_account: probe@example.com }\nmonitors:\n${monitors}`,
    );
  });
  afterAll(async () => {
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await emu.control.reset('default');
    await emu.control.clearFaults();
    await emu.control.clearRequests();
  });
  const env = () => ({ MONSYNC_URL: emu.url, MONSYNC_USERNAME: 'demo@example.com', MONSYNC_PASSWORD: 'demo-password' });
  const sent = async () => (await emu.control.requests()).length;
  const writes = async () => (await emu.control.requests()).filter((r) => r.method !== 'GET' && !r.path.includes('token')).length;

  // Without a terminal apply read the whole account and printed the plan before saying it could not
  // ask: a minute of reading on a large account, then exit 1. It is a usage mistake, known at once.
  it('without a terminal and without --auto-approve fails at once (usage, exit 2), before anything is read', async () => {
    const io = captureIo(env(), { cwd: dir });
    const run = runApply([dir], { parallelism: '8' }, io);
    await expect(run).rejects.toBeInstanceOf(UsageError);
    await expect(run).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(/not on a terminal.*--auto-approve/) });
    expect(io.stdout + io.stderr).toBe('');
    expect(await sent()).toBe(0);
  });

  it('asks naming the account; "no" changes nothing and exits 1', async () => {
    const io = captureIo(env(), { cwd: dir, answers: ['no'] });
    expect(await runApply([dir], { parallelism: '8' }, io)).toBe(1);
    expect(io.asked).toEqual([`\nApply ${N} changes to ${emu.url} (demo@example.com)? Only "yes" will be accepted: `]);
    expect(io.stdout).toContain('Apply cancelled; nothing was changed.');
    expect(await writes()).toBe(0);
  });

  it('says which account it reads on stderr before reading it, and what it read after', async () => {
    const io = captureIo(env(), { cwd: dir, answers: ['yes'] });
    expect(await runApply([dir], { parallelism: '8' }, io)).toBe(0);
    const err = lines(io.stderr);
    const at = err.indexOf(`Reading account ${emu.url} (demo@example.com) ...`);
    expect(at, io.stderr).toBeGreaterThanOrEqual(0);
    expect(err[at + 1]).toMatch(/^Read \d+ monitors \(\d+ SMTP\), \d+ alerts, \d+ groups, \d+ destinations \(\d+\.\d s, \d+ requests\)$/);
    expect(io.stdout).toContain(`Apply complete: ${N} added`);
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s during the changes: no new call, the running one finishes, the summary, exit %i', async (signal, code) => {
    await emu.control.faults({ latency_ms: 30 });
    const io = captureIo(env(), { cwd: dir });
    const out = io.out;
    let sentSignal = false;
    io.out = (s) => {
      out(s);
      if (!sentSignal && / created \(id /.test(io.stdout)) {
        sentSignal = true;
        expect(io.interrupt(signal)).toBe(true);
      }
    };
    expect(await runApply([dir], { parallelism: '1', autoApprove: true }, io)).toBe(code);
    const summary = /Apply interrupted: (\d+) done, 0 failed, 0 skipped, (\d+) not started\./.exec(io.stdout);
    expect(summary, io.stdout).not.toBeNull();
    expect(Number(summary![1]) + Number(summary![2])).toBe(N);
    expect(Number(summary![2])).toBeGreaterThan(0);
    expect(await writes()).toBe(Number(summary![1]));
    expect(io.stderr).toContain(`Interrupted: starting no new calls, waiting for running ones (${signal === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again to quit now).`);
    expect(io.stdout).not.toContain('Checking');
    // The signal is no longer watched once the run is over.
    expect(io.interrupt(signal)).toBe(false);
  });

  it('--json writes one JSON object per line: the plan, each change, the summary, the check', async () => {
    const io = captureIo(env(), { cwd: dir });
    expect(await runApply([dir], { parallelism: '2', autoApprove: true, json: true }, io)).toBe(0);
    const events = lines(io.stdout).map((l) => JSON.parse(l) as { type: string; [k: string]: unknown });
    const types = events.map((e) => e.type).filter((t) => t !== 'change_start' && t !== 'change_finished');
    expect(types).toEqual(['progress', 'progress', 'progress', 'plan', 'apply_start', 'apply_summary', 'check']);
    const finished = events.filter((e) => e.type === 'change_finished') as unknown as { result: Record<string, unknown> }[];
    expect(finished).toHaveLength(N);
    for (const f of finished) {
      expect(f.result).toMatchObject({ kind: 'monitor', action: 'create', status: 'done', id: expect.stringMatching(/^\d+$/), attempts: 1 });
      expect(f.result).not.toHaveProperty('live');
    }
    expect(events.find((e) => e.type === 'plan')).toMatchObject({ plan: { format_version: 1, summary: { create: N } } });
    expect(events.find((e) => e.type === 'apply_summary')).toMatchObject({ done: N, failed: 0, interrupted: false });
    expect(events.at(-1)).toEqual({ type: 'check', matches: true });
    expect(io.stderr).toBe('');
  });

  it('--json without --auto-approve is a usage error, before anything is read', async () => {
    const io = captureIo(env(), { cwd: dir, answers: ['yes'] });
    await expect(runApply([dir], { parallelism: '2', json: true }, io)).rejects.toBeInstanceOf(UsageError);
    expect(await sent()).toBe(0);
  });
});

describe('apply before its first write', () => {
  // A Ctrl-C while the account is read (nothing sent yet) must end the run at once, as it always
  // did, not wait for the read and then apply nothing.
  it('does not hold back Ctrl-C until it starts writing', async () => {
    const emu = await startTestEmulator({ seed: 'default' });
    const dir = await mkdtemp(join(tmpdir(), 'monsync-apply-sig-'));
    try {
      await writeFile(join(dir, 'monsync.yaml'), 'version: 1\nmonitors:\n  - { label: s-1, ip_address: mx, test_account: p@example.com, timer: 5, time_zone: UTC }\n');
      const io = captureIo({ MONSYNC_URL: emu.url, MONSYNC_USERNAME: 'demo@example.com', MONSYNC_PASSWORD: 'demo-password' }, { cwd: dir, answers: ['no'] });
      let watchedBeforeQuestion = true;
      const ask = io.ask!;
      io.ask = async (q) => {
        watchedBeforeQuestion = io.interrupt('SIGINT');
        return ask(q);
      };
      expect(await runApply([dir], { parallelism: '1' }, io)).toBe(1);
      expect(watchedBeforeQuestion).toBe(false);
      expect(io.stderr).not.toContain('Interrupted');
    } finally {
      await emu.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
