/**
 * The fast path of stages 2-4 for one file (parse, interpolate, schema): the common YAML subset
 * read in one pass (parse.ts), with positions in integer arrays (positions.ts), accepted by the
 * accept-only validator (accept.ts). It either gives exactly what the full path (../load-full.ts)
 * would give for the file, or nothing, and then the full path reads the file and says what is wrong.
 */
import type { RawFile } from '../raw.js';
import type { SourceFile } from '../read.js';
import type { ValidFile } from '../resolve.js';
import { schemaAccepts } from './accept.js';
import { fastParse } from './parse.js';

/** The file's data when the fast path reads it whole and it passes the schema; otherwise undefined. */
export function loadFast(source: SourceFile): ValidFile | undefined {
  const fast = fastParse(source.text, source.display);
  if (!fast || !schemaAccepts(fast.data)) return undefined;
  return { locator: fast.positions, data: fast.data as unknown as RawFile };
}
