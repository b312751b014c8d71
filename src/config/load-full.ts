/**
 * The full path of stages 2-4 for one file (parse with the yaml library, interpolate, schema with
 * diagnostics), for files the fast path does not read or that have a problem. Loaded on demand:
 * a configuration the fast path (fast/) reads whole never loads the yaml library.
 *
 * Two steps, so a file loaded for several accounts (parse-cache.ts) is parsed once: `parseFully`
 * (the text to a document, whatever the variables) and `finishFully` (`${VAR}` from one
 * environment, then the data and its schema). `loadFileFully` is both.
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

/** A parsed document that can be finished for any number of environments, one after the other. */
export interface ParsedForFull {
  parsed?: ParsedFile;
  /** Problems of the text itself (syntax, shape): the file's whole result when there is no `parsed`. */
  diagnostics: Diagnostic[];
  /** The values holding `${`, as written: interpolation replaces them in the document, and the next environment starts from these. */
  originals: unknown[];
}

/** Stage 2 for one file: the document, or why there is none. */
export function parseFully(source: SourceFile): ParsedForFull {
  const { parsed, diagnostics } = parseSource(source);
  return parsed ? { parsed, diagnostics, originals: parsed.templated.map((n) => n.value) } : { diagnostics, originals: [] };
}

/**
 * Stages 3-4 for a parsed file under `env`. `accountCredentials`: the declared accounts' credential
 * variables, guarded with monsync's own (interpolate.ts, credentialVariables).
 */
export function finishFully(from: ParsedForFull, env: Env, accountCredentials: readonly string[] = []): FileResult {
  const { parsed } = from;
  if (!parsed) return { diagnostics: from.diagnostics };
  parsed.templated.forEach((node, i) => (node.value = from.originals[i]));
  const diagnostics = [...from.diagnostics];
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

/** Stages 2-4 for one file: the file's data when it passed them all. */
/** `guarded`: references to secret-looking variables, for the loader to refuse unless the settings allow them. */
export function loadFileFully(source: SourceFile, env: Env, accountCredentials: readonly string[] = []): FileResult {
  return finishFully(parseFully(source), env, accountCredentials);
}
