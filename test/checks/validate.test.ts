/** `monsync validate` runs the offline checks: findings printed, errors (and with --strict warnings) fail it. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runValidate } from '../../src/cli/validate.js';
import { captureIo, lines } from '../helpers/io.js';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'checks');

async function validate(file: string, strict?: boolean) {
  const io = captureIo({}, { cwd: FIXTURES });
  const code = await runValidate([file], { strict }, io);
  return { code, out: lines(io.stdout), err: lines(io.stderr) };
}

describe('validate and the checks', () => {
  it('prints warnings of the checks and stays valid', async () => {
    expect(await validate('alert-missing.yaml')).toEqual({
      code: 0,
      out: ['Valid: 1 file, 3 monitors, 1 alert, 0 groups.'],
      err: [
        'alert-missing.yaml:13:5: warning alert/missing: monitor "mx-eu-2" has no alert; nobody is told when it fails',
        'alert-missing.yaml:16:5: warning alert/missing: monitor "mx-eu-3" has no alert; nobody is told when it fails',
      ],
    });
  });

  it('with --strict, a warning makes it invalid', async () => {
    const r = await validate('alert-missing.yaml', true);
    expect(r.code).toBe(1);
    expect(r.out).toEqual([]);
    expect(r.err.at(-1)).toBe('Invalid: the checks found 2 warnings; --strict fails on warnings too.');
  });

  it('an error-level finding makes it invalid, --strict or not', async () => {
    for (const strict of [false, true]) {
      const r = await validate('configured.yaml', strict);
      expect(r.code).toBe(1);
      expect(r.err[0]).toBe('configured.yaml:14:5: error alert/missing: monitor "mx-1" has no alert; nobody is told when it fails');
    }
  });

  it('settings.checks decides: a check raised to error fails validation, one turned off is not run', async () => {
    const r = await validate('configured.yaml');
    expect(r.code).toBe(1);
    expect(r.err.at(-1)).toBe('Invalid: the checks found 1 error, 1 warning.');
    // The same check at its default severity, a warning, leaves the configuration valid.
    expect((await validate('alert-missing.yaml')).code).toBe(0);
  });

  it('with no finding, --strict changes nothing (examples/small)', async () => {
    const small = path.join(import.meta.dirname, '..', '..', 'examples', 'small');
    const io = captureIo({});
    expect(await runValidate([small], { strict: true }, io)).toBe(0);
    expect({ out: lines(io.stdout), err: lines(io.stderr) }).toEqual({ out: ['Valid: 1 file, 2 monitors, 2 alerts, 0 groups.'], err: [] });
  });
});
