/**
 * The canonical key order of configuration files, read from schemas/monsync.schema.json so the
 * schema stays the one place that lists the fields: each object's `properties` in the order the
 * schema declares them. `shapeOf` is pure; `readConfigShape` reads the schema the package ships.
 */
import { ownFile } from '../../util/own-files.js';

/** What the formatter needs to know of one object of the schema (and of what lies below it). */
export interface Shape {
  /** Property names in the schema's order; empty for maps whose keys are the user's own (meta). */
  order: readonly string[];
  /** Required properties: written first (label, subject_init, ...), before merge and `x-` keys. */
  required: ReadonlySet<string>;
  /**
   * Properties written first, in this order, whether required or not: what an item is and where it
   * tests (`IDENTITY_FIRST`). The rest follow in the schema's order.
   */
  lead: readonly string[];
  /** Key patterns the schema allows besides its properties (`^x-`). */
  patterns: readonly RegExp[];
  /** The shape of the value of each property. */
  properties: ReadonlyMap<string, Shape>;
  /** The shape of the items, when the value is a list. */
  items?: Shape;
}

/**
 * The keys a person looks for first in an item, in reading order: what it is (label, name, subject,
 * the names it had), then where it tests (ip_address, port), then how (test_account, use_tls, ipv6).
 * The schema groups its properties by topic for its reference; a file reads best identity first.
 */
export const IDENTITY_FIRST: readonly string[] = [
  'monitor',
  'label',
  'previous_labels',
  'name',
  'previous_names',
  'subject_init',
  'subject_term',
  'previous_subjects',
  'ip_address',
  'port',
  'test_account',
  'use_tls',
  'ipv6',
];

type JsonSchema = { [key: string]: unknown };

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The shape of a JSON Schema object. Only plain inline subschemas are followed (the schema has no $ref). */
export function shapeOf(schema: unknown): Shape {
  const s = isObject(schema) ? schema : {};
  const props = isObject(s.properties) ? s.properties : {};
  const properties = new Map<string, Shape>();
  for (const [name, sub] of Object.entries(props)) properties.set(name, shapeOf(sub));
  const names = Object.keys(props);
  const lead = IDENTITY_FIRST.filter((k) => k in props);
  const shape: Shape = {
    order: [...lead, ...names.filter((k) => !lead.includes(k))],
    lead,
    required: new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : []),
    patterns: isObject(s.patternProperties) ? Object.keys(s.patternProperties).map((p) => new RegExp(p, 'u')) : [],
    properties,
  };
  if (isObject(s.items)) shape.items = shapeOf(s.items);
  return shape;
}

/** The shape of schemas/monsync.schema.json of this package (util/own-files.ts finds it, in a clone or the executable). */
export async function readConfigShape(): Promise<Shape> {
  return shapeOf(JSON.parse(ownFile('schemas/monsync.schema.json').toString('utf8')));
}

let packaged: Shape | undefined;

/** `readConfigShape()` of the package's schema, read once: for pure code that must write what fmt writes (export). */
export function packageConfigShape(): Shape {
  packaged ??= shapeOf(JSON.parse(ownFile('schemas/monsync.schema.json').toString('utf8')));
  return packaged;
}
