/**
 * Durations as monsync prints them (`29m 40s`); parsing what operators type lives in
 * src/util/duration.ts (the configuration's `maintenance` durations use it too) and is re-exported.
 */
import { UNIT_ORDER, UNIT_SECONDS } from '../util/duration.js';

export { DurationError, parseDuration } from '../util/duration.js';

/**
 * `1d 2h`, `29m 40s`, `30m`, `45s`: the `parts` largest non-zero units, truncated (a pause with
 * 29m 59s left reads "29m 59s", never "30m"). Zero or less reads `0s`.
 */
export function formatDuration(totalSeconds: number, parts = 2): string {
  let rest = Math.max(0, Math.floor(totalSeconds));
  if (rest === 0) return '0s';
  const out: string[] = [];
  for (const unit of UNIT_ORDER) {
    const size = UNIT_SECONDS[unit];
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0 || out.length > 0) out.push(`${n}${unit}`);
    if (out.length === parts) break;
  }
  // "1h 0m" says nothing "1h" does not.
  while (out.length > 1 && /^0[a-z]$/.test(out[out.length - 1] as string)) out.pop();
  return out.join(' ');
}
