/**
 * One read and parse of each file for several loads of the same files under other variables:
 * `plan --all-accounts` loads the declaring file and the files its accounts share once per account
 * (16 accounts of 500 monitors each read 8,000 monitors' worth of YAML for 500 distinct ones).
 *
 * Two stages per file: what does not depend on `${VAR}` is done once (the read; the fast paths,
 * which never interpolate: a file holding `${` is left to the full path; the full path's parse),
 * and what does is done per environment: the full path's interpolation, data and schema, redone
 * only when the file's references resolve to other values than a load before (an account whose
 * variables a file does not use gets that file's result as it was). Defaults, cross-file rules and
 * the state are the loader's, per load: they depend on which files an account takes.
 *
 * A cache is for one run over unchanging files: it never looks at a file again. What it hands out
 * is shared between loads and never changed by the later stages (resolve.ts and build.ts copy what
 * they keep). Loads may overlap: each file is parsed once even then.
 */
import type { Diagnostic } from './diagnostics.js';
import { credentialVariables, interpolateString, type Env } from './interpolate.js';
import type { FileResult, ParsedForFull } from './load-full.js';
import { readSourceFileSync, type InputFile, type SourceFile } from './read.js';

export interface ParseCacheStats {
  /** Files read from disk. */
  reads: number;
  /** Files parsed (fast path or full path's parse). */
  parses: number;
  /** Full-path files finished for an environment (interpolation, data, schema). */
  resolutions: number;
  /** Times a load was given a file's result (or read) from the cache instead of working it out. */
  reused: number;
}

export interface ParseCache {
  readonly stats: ParseCacheStats;
  /** @internal The loader's: a file's text (or why it cannot be read), read once. */
  read(input: InputFile): { source: SourceFile } | { diagnostic: Diagnostic };
  /** @internal The loader's: a file's result under `env`, its env-free part worked out once. */
  load(source: SourceFile, env: Env, fullOnly: boolean, steps: LoadSteps, accountCredentials?: () => Promise<string[]>): FileResult | Promise<FileResult>;
}

/** The loader's per-file steps (load.ts), which the cache calls at most once per file. */
export interface LoadSteps {
  /** The fast paths: a result, or the source the full path must read. */
  fast(source: SourceFile, fullOnly: boolean): FileResult | { full: SourceFile };
  /** The full path's parse and its finish for one environment. */
  full(): Promise<{ parseFully(source: SourceFile): ParsedForFull; finishFully(from: ParsedForFull, env: Env, accountCredentials?: readonly string[]): FileResult }>;
}

type Entry = { result: FileResult } | { parsing: Promise<ParsedForFull>; byValues: Map<string, FileResult> };

/**
 * What a full-path file's `${VAR}` references come to under `env`, as one string: two environments
 * giving the same string give the same result for the file.
 */
function valuesKey(from: ParsedForFull, env: Env, credentials: ReadonlySet<string>): string {
  return JSON.stringify(
    from.originals.map((v) => {
      if (typeof v !== 'string') return null;
      // Under the guard the file will be finished with: a value refused as a credential's copy is another result.
      const r = interpolateString(v, env, credentials);
      return [r.value, r.problems.map((p) => p.message), r.guarded.map((p) => p.message)];
    }),
  );
}

/** A full-path file's result under `env`: worked out once per set of values its references take. */
async function finish(
  entry: Extract<Entry, { parsing: unknown }>,
  env: Env,
  steps: LoadSteps,
  stats: ParseCacheStats,
  accountCredentials: () => Promise<string[]>,
): Promise<FileResult> {
  const parsed = await entry.parsing;
  const [full, extra] = await Promise.all([steps.full(), accountCredentials()]);
  // Synchronous from here: a load overlapping this one cannot interpolate the same document
  // meanwhile, nor work out the same values twice.
  const values = valuesKey(parsed, env, credentialVariables(env, extra));
  const known = entry.byValues.get(values);
  if (known) return known;
  stats.resolutions++;
  const result = full.finishFully(parsed, env, extra);
  entry.byValues.set(values, result);
  return result;
}

/** A cache to pass to every `loadConfig` of one run (LoadOptions.cache). */
export function createParseCache(): ParseCache {
  const stats: ParseCacheStats = { reads: 0, parses: 0, resolutions: 0, reused: 0 };
  const reads = new Map<string, { source: SourceFile } | { diagnostic: Diagnostic }>();
  const entries = new Map<string, Entry>();
  // The name shown is part of a file's result (its diagnostics and positions name it).
  const keyOf = (file: { path: string; display: string }) => `${file.path}\0${file.display}`;
  return {
    stats,
    read(input) {
      const key = keyOf(input);
      const known = reads.get(key);
      if (known) {
        stats.reused++;
        return known;
      }
      const read = readSourceFileSync(input);
      stats.reads++;
      reads.set(key, read);
      return read;
    },
    load(source, env, fullOnly, steps, accountCredentials = async () => []) {
      const key = `${keyOf(source)}\0${fullOnly ? 'full' : ''}`;
      let entry = entries.get(key);
      if (entry === undefined) {
        stats.parses++;
        const fast = steps.fast(source, fullOnly);
        entry = 'full' in fast ? { parsing: steps.full().then((m) => m.parseFully(fast.full)), byValues: new Map() } : { result: fast };
        entries.set(key, entry);
      } else {
        stats.reused++;
      }
      if ('result' in entry) return entry.result;
      return finish(entry, env, steps, stats, accountCredentials);
    },
  };
}
