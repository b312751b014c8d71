/** IANA time zone names, as the runtime's Intl knows them (no offline tz database of our own). */
import { closest } from '../util/suggest.js';

let canonical: string[] | undefined;

/** How tz database names are written: capitalised Region/City, UTC, Etc/GMT+1. */
const TZ_NAME = /^[A-Z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

function zones(): string[] {
  canonical ??= Intl.supportedValuesOf('timeZone');
  return canonical;
}

/** Undefined for a valid name; otherwise why not, with a suggestion when one is close. */
export function timeZoneProblem(name: string): string | undefined {
  const list = zones();
  if (list.includes(name)) return undefined;
  const sameLetters = list.find((z) => z.toLowerCase() === name.toLowerCase());
  if (sameLetters) return `time zone ${JSON.stringify(name)} must be written ${JSON.stringify(sameLetters)}`;
  // Intl also takes offsets such as "+01:00" and any case ("us/eastern"), which are not tz
  // database names as written, and the service refuses them (src/emulator/validate.ts, isKnownTimeZone).
  let resolved: string | undefined;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    resolved = undefined;
  }
  // Links such as "US/Eastern" or "Etc/GMT+1" are valid tz names without being in the canonical list.
  if (resolved !== undefined && TZ_NAME.test(name)) return undefined;
  if (resolved !== undefined && /^[A-Za-z]/.test(name)) {
    return `time zone ${JSON.stringify(name)} is not written as in the tz database (names are case-sensitive); did you mean ${JSON.stringify(resolved)}?`;
  }
  const suggestion = closest(name, list);
  const hint = suggestion ? `; did you mean ${JSON.stringify(suggestion)}?` : ' (use a tz database name such as "Europe/London")';
  return `unknown time zone ${JSON.stringify(name)}${hint}`;
}
