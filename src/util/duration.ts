/**
 * Durations, the one place: as operators type them (`90s`, `30m`, `2h`, `1d`, `1h30m`; a bare
 * number is seconds; whole seconds only: the pause endpoints take an integer), and as monsync
 * prints them (`29m 40s`, or roughly: `10 min`).
 */
import { UsageError } from './errors.js';

/** A UserError, so main() prints the message (exit 1) rather than a stack. */
export class DurationError extends UsageError {}

const UNIT_SECONDS = { d: 86_400, h: 3_600, m: 60, s: 1 } as const;
type Unit = keyof typeof UNIT_SECONDS;
const UNIT_ORDER: readonly Unit[] = ['d', 'h', 'm', 's'];

const EXAMPLES = 'e.g. 90s, 30m, 2h, 1d or 1h30m (a bare number is seconds)';

/**
 * Seconds of a positive duration. `what` names the option in messages (`--for`). Refuses zero,
 * negatives, fractions, unknown units, repeated or out-of-order units ("30m2h" is more likely a
 * typo than a wish), and values past what an integer field can carry.
 */
export function parseDuration(input: string, what = 'duration'): number {
  const text = input.trim().toLowerCase();
  const shown = JSON.stringify(input);
  if (text === '') throw new DurationError(`${what}: give a duration, ${EXAMPLES}`);
  if (/^[-−]/.test(text)) throw new DurationError(`${what}: ${shown} is negative; give a positive duration, ${EXAMPLES}`);
  if (/^\+?\d*[.,]\d/.test(text)) {
    throw new DurationError(`${what}: ${shown} has a fraction; use whole units, e.g. 90m rather than 1.5h`);
  }

  let seconds: number;
  if (/^\+?\d+$/.test(text)) {
    seconds = Number(text.replace(/^\+/, ''));
  } else {
    const parts = [...text.matchAll(/(\d+)\s*([a-z]+)/g)];
    const rebuilt = parts.map((p) => p[0].replace(/\s+/g, '')).join('');
    if (parts.length === 0 || rebuilt !== text.replace(/\s+/g, '').replace(/^\+/, '')) {
      throw new DurationError(`${what}: ${shown} is not a duration; ${EXAMPLES}`);
    }
    seconds = 0;
    let lastRank = -1;
    for (const [, digits, unitText] of parts) {
      const unit = normalizeUnit(unitText as string);
      if (unit === undefined) {
        throw new DurationError(`${what}: unknown unit "${unitText}" in ${shown}; units are s, m, h and d (${EXAMPLES})`);
      }
      const rank = UNIT_ORDER.indexOf(unit);
      if (rank <= lastRank) {
        throw new DurationError(`${what}: ${shown} repeats a unit or gives them out of order; write e.g. 1h30m`);
      }
      lastRank = rank;
      seconds += Number(digits) * UNIT_SECONDS[unit];
    }
  }
  if (!Number.isSafeInteger(seconds)) throw new DurationError(`${what}: ${shown} is too long`);
  if (seconds <= 0) throw new DurationError(`${what}: ${shown} is zero; give a positive duration, ${EXAMPLES}`);
  return seconds;
}

function normalizeUnit(u: string): Unit | undefined {
  if (['s', 'sec', 'secs', 'second', 'seconds'].includes(u)) return 's';
  if (['m', 'min', 'mins', 'minute', 'minutes'].includes(u)) return 'm';
  if (['h', 'hr', 'hrs', 'hour', 'hours'].includes(u)) return 'h';
  if (['d', 'day', 'days'].includes(u)) return 'd';
  return undefined;
}

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

/** A difference as a person reads it at a glance, its sign left to the sentence: `45 s`, `10 min`, `2.5 h`. */
export function roughDuration(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 360) / 10} h`;
}
