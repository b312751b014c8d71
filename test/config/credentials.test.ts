import { describe, expect, it } from 'vitest';
import { interpolateString } from '../../src/config/interpolate.js';

const env = { MONSYNC_PASSWORD: 's3cret-pass', MONSYNC_CLIENT_SECRET: 'client-s3cret', SAME: 's3cret-pass', OK: 'fine' };

describe('credentials never become config values', () => {
  it.each([
    ['${MONSYNC_PASSWORD}', /MONSYNC_PASSWORD\} is a credential/],
    ['x ${MONSYNC_CLIENT_SECRET:-none} y', /MONSYNC_CLIENT_SECRET\} is a credential/],
    ['${SAME}', /SAME holds the same value as a monsync credential/],
  ])('%s is refused', (text, message) => {
    const r = interpolateString(text, env);
    expect(r.problems.map((p) => p.message).join('\n')).toMatch(message);
    expect(r.value).not.toContain('s3cret');
  });

  it('other variables interpolate as usual', () => {
    expect(interpolateString('a ${OK} b', env)).toMatchObject({ value: 'a fine b', problems: [] });
  });
});
