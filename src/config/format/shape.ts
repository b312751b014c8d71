/**
 * The canonical key order of configuration files, read from schemas/monsync.schema.json so the
 * schema stays the one place that lists the fields: each object's `properties` in the order the
 * schema declares them. `shapeOf` is pure; `readConfigShape` reads the schema the package ships.
 */
import { readFile } from 'node:fs/promises';

/** What the formatter needs to know of one object of the schema (and of what lies below it). */
export interface Shape {
  /** Property names in the schema's order; empty for maps whose keys are the user's own (meta). */
  order: readonly string[];
  /** Required properties: written first (label, subject_init, ...), before merge and `x-` keys. */
  required: ReadonlySet<string>;
  /** Key patterns the schema allows besides its properties (`^x-`). */
  patterns: readonly RegExp[];
  /** The shape of the value of each property. */
  properties: ReadonlyMap<string, Shape>;
  /** The shape of the items, when the value is a list. */
  items?: Shape;
}

type JsonSchema = { [key: string]: unknown };

const isObject = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The shape of a JSON Schema object. Only plain inline subschemas are followed (the schema has no $ref). */
export function shapeOf(schema: unknown): Shape {
  const s = isObject(schema) ? schema : {};
  const props = isObject(s.properties) ? s.properties : {};
  const properties = new Map<string, Shape>();
  for (const [name, sub] of Object.entries(props)) properties.set(name, shapeOf(sub));
  const shape: Shape = {
    order: Object.keys(props),
    required: new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === 'string') : []),
    patterns: isObject(s.patternProperties) ? Object.keys(s.patternProperties).map((p) => new RegExp(p, 'u')) : [],
    properties,
  };
  if (isObject(s.items)) shape.items = shapeOf(s.items);
  return shape;
}

/** schemas/monsync.schema.json of this package: three levels up from here in src/ and in dist/ alike. */
export const CONFIG_SCHEMA_URL = new URL('../../../schemas/monsync.schema.json', import.meta.url);

export async function readConfigShape(url: URL = CONFIG_SCHEMA_URL): Promise<Shape> {
  return shapeOf(JSON.parse(await readFile(url, 'utf8')));
}
