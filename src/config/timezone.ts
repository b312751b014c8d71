/** IANA time zone names, as the runtime's Intl knows them (no offline tz database of our own). */
import { closest } from './suggest.js';

let canonical: string[] | undefined;

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
  // Offsets such as "+01:00" are accepted by newer Intl versions but are not tz database names.
  let accepted = /^[A-Za-z]/.test(name);
  if (accepted) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
    } catch {
      accepted = false;
    }
  }
  // Links such as "US/Eastern" or "Etc/GMT+1" are valid tz names without being in the canonical list.
  if (accepted) return undefined;
  const suggestion = closest(name, list);
  const hint = suggestion ? `; did you mean ${JSON.stringify(suggestion)}?` : ' (use a tz database name such as "Europe/London")';
  return `unknown time zone ${JSON.stringify(name)}${hint}`;
}
