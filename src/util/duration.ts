/**
 * Durations as operators type them (`90s`, `30m`, `2h`, `1d`, `1h30m`; a bare number is seconds):
 * whole seconds only (the pause endpoints take an integer).
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

export { UNIT_ORDER, UNIT_SECONDS };
