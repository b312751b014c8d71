import { describe, expect, it } from 'vitest';
import { globMatch, matchesAny } from '../../src/util/glob.js';

describe('glob', () => {
  it.each([
    ['legacy-*', 'legacy-1', true],
    ['legacy-*', 'legacy-', true],
    ['legacy-*', 'xlegacy-1', false],
    ['*', '', true],
    ['mx-??', 'mx-eu', true],
    ['mx-??', 'mx-e', false],
    ['a.b', 'axb', false],
    ['a.b', 'a.b', true],
    ['(x)+[y]|{z}^$\\', '(x)+[y]|{z}^$\\', true],
    ['*/prod', 'eu / mx/prod', true],
    ['Prod', 'prod', false],
    ['?', '😀', true],
    ['*line', 'two\nline', true],
  ])('%j matches %j: %s', (glob, text, want) => {
    expect(globMatch(glob, text)).toBe(want);
  });
  it('matchesAny', () => {
    expect(matchesAny(['a*', 'b*'], 'bx')).toBe(true);
    expect(matchesAny([], 'bx')).toBe(false);
  });
});
