/**
 * The full path of stages 2-4 for one file (parse with the yaml library, interpolate, schema with
 * diagnostics), for files the fast path does not read or that have a problem. Loaded on demand:
 * a configuration the fast path (fast/) reads whole never loads the yaml library.
 */
import type { Diagnostic } from './diagnostics.js';
import { credentialVariables, interpolateDocument, type Env, type GuardedReference } from './interpolate.js';
import { indexDocument } from './locate.js';
import { parseSource, toPlainData, type ParsedFile } from './parse.js';
import type { RawFile } from './raw.js';
import type { SourceFile } from './read.js';
import type { ValidFile } from './resolve.js';
import { salvage, validateFile } from './schema.js';

export type FileResult = { valid?: ValidFile; diagnostics: Diagnostic[]; guarded?: GuardedReference[] };

/**
 * Stages 2-4 for one file: the file's data when it passed them all. `accountCredentials`: the declared
 * accounts' credential variables, guarded with monsync's own (interpolate.ts, credentialVariables);
 * `guarded`: references to secret-looking variables, for the loader to refuse unless the settings allow them.
 */
export function loadFileFully(source: SourceFile, env: Env, accountCredentials: readonly string[] = []): FileResult {
  const { parsed, diagnostics: parseProblems } = parseSource(source);
  if (!parsed) return { diagnostics: parseProblems };
  const diagnostics = [...parseProblems];
  const interpolated = interpolateDocument(parsed, env, credentialVariables(env, accountCredentials));
  diagnostics.push(...interpolated.diagnostics);
  const { data, diagnostics: dataProblems } = toPlainData(parsed);
  diagnostics.push(...dataProblems);
  if (!data) return { diagnostics };
  const { guarded } = interpolated;
  // A value whose variable is unset has already been reported; its schema complaints would be noise.
  const failedAt = new Set([...interpolated.failed].map((o) => JSON.stringify(parsed.locator.at(o))));
  const schemaProblems = validateFile(data, parsed.locator).filter(
    (d) => !failedAt.has(JSON.stringify({ line: d.line, column: d.column })),
  );
  diagnostics.push(...schemaProblems);
  if (diagnostics.length > 0) {
    // The later stages still see what the schema accepts, so every problem comes out in one run;
    // with these diagnostics (errors) no desired state is ever built from it.
    const kept = schemaProblems.length > 0 && schemaProblems.length === diagnostics.length ? salvage(data) : undefined;
    if (kept === undefined) return { diagnostics, guarded };
    return { valid: { locator: indexDocument(parsed.locator, parsed.doc, parsed.lines), data: kept as RawFile }, diagnostics, guarded };
  }
  const positions = indexDocument(parsed.locator, parsed.doc, parsed.lines);
  return { valid: { locator: positions, data: data as unknown as RawFile }, diagnostics, guarded };
}
