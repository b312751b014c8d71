/**
 * A fingerprint of the live state a plan was computed from. Apply recomputes it just before running
 * a saved plan: a different value means the account changed since, and the plan's calls may no
 * longer be right.
 */
import { createHash, type Hash } from 'node:crypto';
import type { LiveState, Monitor } from '../model/live.js';
import { matchesAny } from '../util/glob.js';

/**
 * The live state without what `settings.ignore` hides: monitors by label (and their alerts) and
 * groups by name. Memberships of kept groups are kept whole: they are that group's state.
 */
export function filterIgnored(live: LiveState, ignore: readonly string[]): LiveState {
  if (ignore.length === 0) return live;
  const monitors = live.monitors.filter((m) => !matchesAny(ignore, m.label));
  const kept = new Set(monitors.map((m) => m.id));
  const ignoredIds = new Set(live.monitors.filter((m) => !kept.has(m.id)).map((m) => m.id));
  return {
    monitors,
    alerts: live.alerts.filter((a) => !ignoredIds.has(a.monitor)),
    groups: live.groups.filter((g) => !matchesAny(ignore, g.name)),
    destinations: live.destinations,
  };
}

/**
 * What happens to a field of a record on its way into the canonical text: left out, or an id array
 * whose order the service does not promise. Every other field enters as it is, so a field added to
 * the model later is covered without anyone remembering to list it here.
 */
type Treatment = 'skip' | 'ids';
type Treatments = Readonly<Partial<Record<string, Treatment>>>;

const MONITOR_TREATMENT: Treatments = { alerts: 'ids', groups: 'ids' };
const ALERT_TREATMENT: Treatments = { violations: 'skip', alert_destinations: 'ids' };
const GROUP_TREATMENT: Treatments = { members: 'skip' };
const AS_IS: Treatments = {};

/** A record layout: own keys in enumeration order, and which of them enter the text, in key order. */
interface Shape {
  keys: string[];
  /** Positions in `keys` of the fields that enter, sorted by key. */
  order: number[];
  /** Per entry of `order`: 'ids' or nothing ('skip' fields do not enter). */
  treat: (Treatment | undefined)[];
  /** The entering keys, encoded: equal for equal key sets whatever order the object has them in. */
  names: string;
  /** Made from a record without undefined values: one that other records can be checked against. */
  complete: boolean;
}

// The ES2023 lib this repo compiles against does not declare it; Node 20 has it. For one-byte
// strings (nearly all of them) V8 answers without looking at the characters.
const wellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * Hashes a piece of canonical text, framed by its length. UTF-8 cannot carry lone surrogates (they
 * become U+FFFD, so two different strings would hash alike): a piece that has one goes in as
 * UTF-16 instead, marked `w` rather than `u`. One check per piece rather than one per string.
 */
function hashText(hash: Hash, text: string): void {
  if (wellFormed(text)) hash.update('u' + text.length + ':' + text);
  else hash.update('w' + text.length + ':').update(text, 'utf16le');
}

const byKey = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

// `<len>"`, the prefix of a string in the canonical text; most strings are short, and a table
// saves converting half a million lengths to text.
const PREFIXES: readonly string[] = Array.from({ length: 256 }, (_, n) => `${n}"`);
const lengthPrefix = (n: number): string => (n < 256 ? PREFIXES[n]! : `${n}"`);

/**
 * A field value as unambiguous text. Grammar: `<len>"<chars>` string, `d<number>;`, `t`, `f`, `n`
 * (null), `b<bigint>;`, `u` (undefined in an array, or nothing JSON could carry), `[` values `]`,
 * `{` (key value)* `}` with keys sorted and undefined values left out.
 */
function encodeValue(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return lengthPrefix(v.length) + v;
    case 'number':
      return 'd' + v + ';';
    case 'boolean':
      return v ? 't' : 'f';
    case 'object':
      if (v === null) return 'n';
      return Array.isArray(v) ? encodeArray(v) : encodeObject(v);
    case 'bigint':
      return 'b' + v + ';';
    default:
      return 'u';
  }
}

function encodeArray(xs: readonly unknown[]): string {
  let text = '[';
  for (let i = 0; i < xs.length; i++) text += encodeValue(xs[i]);
  return text + ']';
}

/** Keys are sorted only when they do not come sorted already (meta nearly always does). */
function encodeObject(o: object): string {
  const keys = Object.keys(o);
  for (let i = 1; i < keys.length; i++) {
    if (keys[i - 1]! > keys[i]!) {
      keys.sort(byKey);
      break;
    }
  }
  let text = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = (o as Record<string, unknown>)[k];
    if (v === undefined) continue;
    text += lengthPrefix(k.length) + k;
    text += typeof v === 'string' ? lengthPrefix(v.length) + v : encodeValue(v);
  }
  return text + '}';
}

/**
 * An array whose order carries no meaning: `[` its elements sorted (as Array.prototype.sort would)
 * `]`, each written as a field value. Id lists are short and already sorted; those are written in
 * place, without a copy.
 */
function encodeIds(v: unknown): string {
  if (!Array.isArray(v)) return encodeValue(v);
  let text = '[';
  for (let i = 0; i < v.length; i++) {
    const x: unknown = v[i];
    if (typeof x !== 'string' || (i > 0 && (v[i - 1] as string) > x)) {
      text = '[';
      for (const y of [...(v as unknown[])].sort()) text += encodeValue(y);
      return text + ']';
    }
    text += lengthPrefix(x.length) + x;
  }
  return text + ']';
}

/**
 * Feeds a list of records (already in canonical order) into the hash as text: `[`, then per record
 * its key names where they differ from the previous record's (`<` keys `>`), `(` its values `)`;
 * then `]`. Fields whose value is undefined are left out, as JSON would.
 *
 * Written for the first call in a process, which runs mostly before the JIT has compiled it: no
 * copies of the records, strings length-prefixed (never escaped) in place, and the work per record
 * in small functions, which V8 optimizes (and, when another kind of record comes, re-optimizes)
 * far sooner than one large loop.
 */
function hashRecords(hash: Hash, items: readonly object[], treatments: Treatments): void {
  let text = '[';
  const scratch: unknown[] = [];
  let shape: Shape | null = null;
  let lastNames: string | null = null;
  for (let r = 0; r < items.length; r++) {
    const o = items[r] as Record<string, unknown>;
    // Records of one list nearly always share one layout: make a fresh one only when it differs.
    if (shape === null || !readAs(o, shape.keys, scratch)) {
      shape = shapeOf(o, treatments);
      for (let i = 0; i < shape.keys.length; i++) scratch[i] = o[shape.keys[i]!];
    }
    if (shape.names !== lastNames) {
      text += '<' + shape.names + '>';
      lastNames = shape.names;
    }
    text += encodeRecord(scratch, shape.order, shape.treat);
    // A layout made from a record with undefined values must not be taken for the next one's.
    if (!shape.complete) shape = null;
    if (text.length >= 65536) {
      hashText(hash, text);
      text = '';
    }
  }
  hashText(hash, text + ']');
}

/**
 * Reads o's values into scratch when its own keys are exactly `keys`, in that order, all defined.
 * Kept apart from the loop over records: it is the only code that sees each kind of record's
 * layout, so a new kind recompiles this small function rather than the whole loop.
 */
function readAs(o: Record<string, unknown>, keys: readonly string[], scratch: unknown[]): boolean {
  let n = 0;
  for (const k in o) {
    if (keys[n] !== k) return false;
    const v = o[k];
    if (v === undefined) return false;
    scratch[n++] = v;
  }
  return n === keys.length;
}

/** `(` a record's values in key order `)`. */
function encodeRecord(scratch: readonly unknown[], order: readonly number[], treat: readonly (Treatment | undefined)[]): string {
  let text = '(';
  for (let i = 0; i < order.length; i++) {
    const v = scratch[order[i]!];
    if (treat[i] !== undefined) text += encodeIds(v);
    else if (typeof v === 'string') text += lengthPrefix(v.length) + v;
    else if (typeof v === 'number') text += 'd' + v + ';';
    else if (v === null) text += 'n';
    else if (v === true) text += 't';
    else if (v === false) text += 'f';
    else text += encodeValue(v);
  }
  return text + ')';
}

function shapeOf(o: object, treatments: Treatments): Shape {
  const keys = Object.keys(o);
  const entering: number[] = [];
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    if (treatments[k] === 'skip' || (o as Record<string, unknown>)[k] === undefined) continue;
    entering.push(i);
  }
  entering.sort((a, b) => byKey(keys[a]!, keys[b]!));
  let names = '';
  for (const i of entering) names += keys[i]!.length + '"' + keys[i];
  const complete = keys.every((k) => (o as Record<string, unknown>)[k] !== undefined);
  return { keys, order: entering, treat: entering.map((i) => treatments[keys[i]!]), names, complete };
}

const byId = <T extends { id: string }>(a: T, b: T): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The list in id order; lists the service returns in that order already are not copied. */
function sortedById<T extends { id: string }>(xs: readonly T[]): readonly T[] {
  for (let i = 1; i < xs.length; i++) {
    if (xs[i - 1]!.id > xs[i]!.id) return [...xs].sort(byId);
  }
  return xs;
}

/**
 * Memberships of ignored monitors in groups that are not ignored, in id order; empty without ignore.
 */
function ignoredMemberships(live: LiveState, kept: LiveState): { id: string; groups: string[] }[] {
  if (kept === live) return [];
  const keptGroups = new Set(kept.groups.map((g) => g.id));
  const keptMonitors = new Set(kept.monitors.map((m) => m.id));
  const out: { id: string; groups: string[] }[] = [];
  for (const m of sortedById<Monitor>(live.monitors)) {
    if (keptMonitors.has(m.id) || m.groups === null) continue;
    const groups = m.groups.filter((g) => keptGroups.has(g)).sort();
    if (groups.length > 0) out.push({ id: m.id, groups });
  }
  return out;
}

/**
 * sha256 (hex) of the canonical live state after ignore filtering. Left out: volatile fields that say
 * nothing about configuration (alert `violations`), order the service does not promise (list order,
 * the order of id arrays, the order of keys in an object), and group member lists: read-live fills
 * those from monitors' `groups` or from single-group reads of only the groups a plan needs, so they
 * differ between two reads of an unchanged account. Membership is still covered through each
 * monitor's `groups`, including the memberships of ignored monitors in groups that are not ignored.
 * Every other field of every record is covered, including fields the model does not know yet.
 *
 * The second argument is the ignore globs, or an object carrying them (a plan's `options`).
 */
export function fingerprintLive(
  live: LiveState,
  ignore: readonly string[] | { ignore?: readonly string[] | undefined } = [],
): string {
  const globs = Array.isArray(ignore) ? ignore : ((ignore as { ignore?: readonly string[] }).ignore ?? []);
  const l = filterIgnored(live, globs);
  const hash = createHash('sha256');
  // Ignored monitors stay out, but not their membership of groups the plan may replace: a declared
  // group's PUT (replace: true) carries the ignored members it saw, so a change there must be seen.
  hashText(hash, encodeValue('ignored_memberships'));
  hashRecords(hash, ignoredMemberships(live, l), AS_IS);
  hashText(hash, encodeValue('monitors'));
  hashRecords(hash, sortedById(l.monitors), MONITOR_TREATMENT);
  hashText(hash, encodeValue('alerts'));
  hashRecords(hash, sortedById(l.alerts), ALERT_TREATMENT);
  hashText(hash, encodeValue('groups'));
  hashRecords(hash, sortedById(l.groups), GROUP_TREATMENT);
  hashText(hash, encodeValue('destinations'));
  hashRecords(hash, sortedById(l.destinations), AS_IS);
  return hash.digest('hex');
}
