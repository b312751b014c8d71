/**
 * The tiny glob dialect of `settings.ignore`, `--target` and `export --match`: `*` matches any run of
 * characters (including none), `?` exactly one; everything else is literal and case-sensitive. Labels
 * are free text (they may contain `/`, `.`, spaces), so there is no path semantics.
 */

const cache = new Map<string, RegExp>();

export function globToRegExp(glob: string): RegExp {
  let re = cache.get(glob);
  if (!re) {
    let src = '^';
    for (const ch of glob) {
      if (ch === '*') src += '[\\s\\S]*';
      else if (ch === '?') src += '[\\s\\S]';
      else src += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    }
    // `u` so that `?` consumes one code point, not half of a surrogate pair.
    re = new RegExp(`${src}$`, 'u');
    cache.set(glob, re);
  }
  return re;
}

export function globMatch(glob: string, text: string): boolean {
  return globToRegExp(glob).test(text);
}

export function matchesAny(globs: readonly string[], text: string): boolean {
  return globs.some((g) => globMatch(g, text));
}
