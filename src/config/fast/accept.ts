/**
 * Whether a file's data passes schemas/monsync.schema.json, and nothing more: what every file of a
 * sound configuration asks. Its validator stops at the first problem and describes none, so it is
 * smaller and faster than schema.ts's, which collects every problem with its context for the
 * messages; that one is loaded only when a file needs the full path.
 */
// Compiled from the schema at build time (scripts/schema-validator.mjs): no run compiles it.
import { validate } from './generated/accept-schema.js';

/** True when the data passes the schema (schema.ts's validateFile says why when it does not). */
export function schemaAccepts(data: unknown): boolean {
  return (validate as (data: unknown) => boolean)(data) === true;
}
