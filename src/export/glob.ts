/**
 * The glob dialect of `--match` (and of `--target` / `settings.ignore`): `*` any run of characters,
 * `?` one character, everything else literal, matched against the whole label. Labels are free
 * text, so `/` has no special meaning.
 */
export function globToRegExp(glob: string): RegExp {
  let src = '';
  for (const ch of glob) {
    if (ch === '*') src += '.*';
    else if (ch === '?') src += '.';
    else src += ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${src}$`, 's');
}

export function makeMatcher(globs: readonly string[] | undefined): (text: string) => boolean {
  if (!globs || globs.length === 0) return () => true;
  const res = globs.map(globToRegExp);
  return (text) => res.some((re) => re.test(text));
}
