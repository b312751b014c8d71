/** "Did you mean": edit distance and the one rule of what counts as a plausible typo. */

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** Edits a plausible typo of `input` may be away: a third of its length, at least 1, at most 3. */
export function typoLimit(input: string): number {
  return Math.max(1, Math.min(3, Math.floor(input.length / 3)));
}

/** The candidate closest to `input`, if it is within `typoLimit(input)` edits, case-insensitively. */
export function closest(input: string, candidates: readonly string[]): string | undefined {
  const limit = typoLimit(input);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = levenshtein(input.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}
