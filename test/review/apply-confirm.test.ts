/**
 * Ctrl-C at apply's confirmation prompt. readline turns it into an AbortError that reached main()
 * as "monsync: internal error: The operation was aborted" with exit 1; it is an interruption:
 * nothing was changed, and the documented exit code after Ctrl-C is 130.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { confirmApply } from '../../src/cli/apply-run.js';

/** A terminal on both sides, as when a person runs apply: readline reads keys raw, so Ctrl-C is a byte. */
function terminal(): { input: PassThrough & { isTTY?: boolean }; output: PassThrough & { isTTY?: boolean } } {
  const input = new PassThrough() as PassThrough & { isTTY?: boolean };
  const output = new PassThrough() as PassThrough & { isTTY?: boolean };
  input.isTTY = true;
  output.isTTY = true;
  return { input, output };
}

describe('apply confirmation prompt', () => {
  it('Ctrl-C is an interruption, not an error', { timeout: 5000 }, async () => {
    const { input, output } = terminal();
    const answer = confirmApply(input, output);
    setTimeout(() => input.write('\x03'), 5);
    await expect(answer).resolves.toBe('interrupted');
  });

  it('"yes" confirms, anything else declines', async () => {
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
