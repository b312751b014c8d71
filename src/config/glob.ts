/** The globs of `settings.ignore`: `*` is any run of characters, `?` one character, the rest literal. */

export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (const ch of glob) {
    if (ch === '*') re += '[^]*';
    else if (ch === '?') re += '[^]';
    else re += ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'u');
}

/** The first glob matching `name`, if any. */
export function matchingGlob(name: string, globs: readonly string[]): string | undefined {
  return globs.find((g) => globToRegExp(g).test(name));
}
