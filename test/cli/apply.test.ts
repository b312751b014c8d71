/**
 * `monsync apply` in process: what the runner refuses before anything is read or sent, and its
 * confirmation prompt. (The built CLI applying against an emulator is in test/e2e/.)
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { confirmApply, runApply } from '../../src/cli/apply-run.js';
import { UserError } from '../../src/util/errors.js';
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
