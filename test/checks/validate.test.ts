/** `monsync validate` runs the offline checks: findings printed, errors (and with --strict warnings) fail it. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runValidate } from '../../src/cli/validate.js';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'checks');

async function validate(file: string, strict?: boolean) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runValidate([file], { cwd: FIXTURES, env: {}, stdout: (l) => out.push(l), stderr: (l) => err.push(l) }, { strict });
  return { code, out, err };
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
    const r = await validate('monitor-ip-version.yaml');
    expect(r.code).toBe(1);
    expect(r.err).toHaveLength(3);
    expect(r.err.at(-1)).toBe('Invalid: the checks found 2 errors.');
  });

  it('settings.checks decides: a check raised to error fails validation, one turned off is not run', async () => {
    const r = await validate('configured.yaml');
    expect(r.code).toBe(1);
    expect(r.err.at(-1)).toBe('Invalid: the checks found 1 error, 1 warning.');
  });

  it('with no finding, --strict changes nothing (examples/small)', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const small = path.join(import.meta.dirname, '..', '..', 'examples', 'small');
    expect(await runValidate([small], { env: {}, stdout: (l) => out.push(l), stderr: (l) => err.push(l) }, { strict: true })).toBe(0);
    expect({ out, err }).toEqual({ out: ['Valid: 1 file, 2 monitors, 2 alerts, 0 groups.'], err: [] });
  });
});
