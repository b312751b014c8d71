/**
 * loadConfig: files and directories in, a DesiredState or every problem found out. Each stage
 * reports diagnostics and passes on what is still sound, so one run shows as much as possible;
 * nothing here throws for bad input.
 */
import type { DesiredMaintenance, DesiredState } from '../model/desired.js';
import { buildState } from './build.js';
import { diag, isError, sortDiagnostics, type Diagnostic } from './diagnostics.js';
import { schemaAccepts } from './fast/accept.js';
import { loadFast } from './fast/index.js';
import type { Env, GuardedReference } from './interpolate.js';
import type { FileResult } from './load-full.js';
import { scanJson } from './json.js';
import { pathText } from '../util/safe-text.js';
import type { RawFile } from './raw.js';
import { isJsonFile, readSourceFileSync, resolveInputs, type SourceFile } from './read.js';
import { resolve, type ValidFile } from './resolve.js';
import { checkSemantics } from './semantic.js';

export interface LoadOptions {
  /** Variables for `${VAR}`; default process.env. */
  env?: Env;
  /** Base for relative paths and for the file names in diagnostics; default process.cwd(). */
  cwd?: string;
  /**
   * Read every file on the full path (the yaml library), never the fast one. Default: true when
   * the environment variable MONSYNC_CONFIG_FULL_PATH is set to anything but "" or "0" (see
   * CONTRIBUTING, "Config loader"). For debugging the fast path, and for tests comparing the two.
   */
  fullPath?: boolean;
  /** From when overlapping maintenance windows are looked for (milliseconds); default Date.now(). */
  now?: number;
}

/**
 * Files read in a row before they are parsed. Every read is three system calls, and each leaves the
 * caches and address translations the parser had warmed cold (and the parser leaves the kernel's
 * cold): reading a few dozen together keeps each side's warm. A row ends at 1 MB of text too.
 */
const READ_AHEAD = 64;
const READ_AHEAD_CHARS = 1 << 20;

/** The variable that forces the full path (read from process.env, not from LoadOptions.env). */
export const FULL_PATH_VARIABLE = 'MONSYNC_CONFIG_FULL_PATH';

function fullPathForced(): boolean {
  const value = process.env[FULL_PATH_VARIABLE];
  return value !== undefined && value !== '' && value !== '0';
}

/**
 * A configuration file that is not on disk, such as one a program builds: `text` is read as a file
 * named `name` would be (JSON when the name ends in `.json`, YAML otherwise); `data` is read as the
 * JSON text `JSON.stringify(data, null, 2)` whatever the name. Diagnostics name `name`, with lines
 * and columns in that text.
 */
export type ConfigSource = { name: string; text: string } | { name: string; data: unknown };

/** A path (file or directory) or a configuration in memory. */
export type ConfigInput = string | ConfigSource;

export type LoadResult =
  | { state: DesiredState; /** Problems that do not stop loading. */ warnings: Diagnostic[] }
  | { diagnostics: Diagnostic[] };

let fullModule: Promise<typeof import('./load-full.js')> | undefined;

/**
 * A plan saved by `plan --out` (src/apply/saved-plan.ts: `format_version`, no `version`) lands in a
 * configuration directory easily, and would otherwise be explained key by key as a bad configuration.
 */
function isSavedPlan(data: unknown): boolean {
  return typeof data === 'object' && data !== null && 'format_version' in data && !('version' in data);
}
/** A saved plan given where configuration goes (`apply plan.json`): say how it is applied. */
const savedPlan = (file: string): string =>
  `this is a plan saved by \`monsync plan --out\`, not a configuration file: apply it with \`monsync apply --plan ${pathText(file)}\`; keep saved plans out of the directories given as configuration`;

/**
 * Stages 2-4 for one file on the fast paths (YAML subset, strict JSON): the file's data, or the
 * source the full path must read (a JSON text as YAML). No promise: a configuration of one file
 * per monitor goes through here thousands of times, and the fast paths never wait.
 */
function loadFileFast(source: SourceFile, fullOnly: boolean): FileResult | { full: SourceFile } {
  if (source.json ?? isJsonFile(source.path)) {
    // Strict JSON or its syntax error; the full path reads the text as YAML 1.2 flow, which JSON is.
    const json = scanJson(source.text, source.display);
    if ('diagnostic' in json) return { diagnostics: [json.diagnostic] };
    if (isSavedPlan(json.data)) return { diagnostics: [diag(source.display, { line: 1, column: 1 }, savedPlan(source.display))] };
    if (json.positions && !fullOnly && schemaAccepts(json.data)) {
      return { valid: { locator: json.positions, data: json.data as RawFile }, diagnostics: [] };
    }
    return { full: { ...source, text: json.text } };
  }
  // The common shapes of YAML without a document; anything else, and any problem, takes the full path.
  const fast = fullOnly ? undefined : loadFast(source);
  if (fast) return { valid: fast, diagnostics: [] };
  return { full: source };
}

/** The full path of stages 2-4 (the yaml library), loaded on the first file that needs it. */
function fullPath(): Promise<typeof import('./load-full.js')> {
  return (fullModule ??= import('./load-full.js'));
}

/**
 * Stages 2-4 for one file: the file's data when it passed them all. A promise only when the full
 * path is taken (its module loads on demand): one file per monitor is thousands of files.
 */
function loadFile(source: SourceFile, env: Env, fullOnly: boolean, accountCredentials: () => Promise<string[]>): FileResult | Promise<FileResult> {
  const fast = loadFileFast(source, fullOnly);
  return 'full' in fast ? Promise.all([fullPath(), accountCredentials()]).then(([m, extra]) => m.loadFileFully(fast.full, env, extra)) : fast;
}

/** A configuration in memory as a source, or why it cannot be one. */
function inMemory(input: ConfigSource): { source: SourceFile } | { diagnostic: Diagnostic } {
  const { name } = input;
  if ('text' in input) return { source: { path: name, display: name, text: input.text } };
  let text: string | undefined;
  try {
    text = JSON.stringify(input.data, null, 2) as string | undefined;
  } catch (err) {
    return { diagnostic: diag(name, { line: 1, column: 1 }, `cannot be written as JSON: ${err instanceof Error ? err.message : String(err)}`) };
  }
  if (text === undefined) return { diagnostic: diag(name, { line: 1, column: 1 }, `cannot be written as JSON: ${typeof input.data}`) };
  return { source: { path: name, display: name, text, json: true } };
}

/**
 * The desired state of the configuration in `inputs`: paths of files and directories (none:
 * `monsync.yaml` in `cwd`) and configurations in memory, merged as one, in the order given.
 */
export async function loadConfig(inputs: readonly ConfigInput[], opts: LoadOptions = {}): Promise<LoadResult> {
  const cwd = opts.cwd ?? process.cwd();
  const env = opts.env ?? process.env;
  const fullOnly = opts.fullPath ?? fullPathForced();
  const diagnostics: Diagnostic[] = [];

  const paths = inputs.filter((i): i is string => typeof i === 'string');
  // Every declared account's credential variables are guarded whichever account is loaded. Only a
  // file the full path reads (any `${`) needs them: the declaration is read then, once, and lazily
  // (it loads the yaml library, which the fast path never does).
  let accountNames: Promise<string[]> | undefined;
  const accountCredentials = () =>
    (accountNames ??=
      paths.length === 0 && inputs.length > 0
        ? Promise.resolve([])
        : import('./accounts.js').then(async (a) => a.accountCredentialVariables(await a.readDeclaredAccounts(paths.slice(0, 1), cwd))));
  const files = paths.length > 0 || inputs.length === 0 ? await resolveInputs(paths, cwd) : { files: [], diagnostics: [] };
  diagnostics.push(...files.diagnostics);

  const valid: ValidFile[] = [];
  const guarded: GuardedReference[] = [];
  const onDisk = files.files;
  const given = inputs.filter((i): i is ConfigSource => typeof i !== 'string').map(inMemory);
  const names = new Set<string>();
  const ahead: Array<ReturnType<typeof readSourceFileSync>> = [];
  let aheadFrom = 0;
  for (let i = 0; i < onDisk.length + given.length; i++) {
    // Files are read a few at a time just before they are parsed, not all of them first: their
    // sources (and texts, unless positions keep them) are then garbage before the next collection,
    // instead of 10,002 of them outliving two and being copied by each (one file per monitor).
    if (i < onDisk.length && i === aheadFrom + ahead.length) {
      aheadFrom = i;
      ahead.length = 0;
      const end = Math.min(i + READ_AHEAD, onDisk.length);
      let chars = 0;
      for (let j = i; j < end && chars < READ_AHEAD_CHARS; j++) {
        const read = readSourceFileSync(onDisk[j]!);
        ahead.push(read);
        if ('source' in read) chars += read.source.text.length;
      }
    }
    const read = i < onDisk.length ? ahead[i - aheadFrom]! : given[i - onDisk.length]!;
    if ('source' in read) {
      // Every diagnostic names its file: two sources of one name could not be told apart.
      if (names.has(read.source.display)) {
        diagnostics.push(diag(read.source.display, { line: 1, column: 1 }, 'a configuration of this name is given twice'));
        continue;
      }
      names.add(read.source.display);
    }
    if ('diagnostic' in read) {
      diagnostics.push(read.diagnostic);
      continue;
    }
    try {
      const loading = loadFile(read.source, env, fullOnly, accountCredentials);
      const one = loading instanceof Promise ? await loading : loading;
      // Most files have nothing to add: no spread of empty lists (a call into the runtime each).
      if (one.diagnostics.length > 0) diagnostics.push(...one.diagnostics);
      if (one.guarded !== undefined && one.guarded.length > 0) guarded.push(...one.guarded);
      if (one.valid) valid.push(one.valid);
    } catch (err) {
      // A bug of ours, not of the input; still a diagnostic, so the user sees which file set it off.
      const message = err instanceof Error ? err.message : String(err);
      diagnostics.push(diag(read.source.display, { line: 1, column: 1 }, `internal error while reading this file: ${message}`));
    }
  }

  const { resolved, diagnostics: mergeProblems } = resolve(valid);
  diagnostics.push(...mergeProblems, ...checkSemantics(resolved));
  // Secret-looking `${VAR}`s, refused unless the settings (in whichever file holds them) allow the name.
  const allowed = new Set(resolved.settings.allowed_secret_variables ?? []);
  diagnostics.push(...guarded.filter((g) => !allowed.has(g.name)).map((g) => g.diagnostic));
  // Maintenance windows (and croner, ~7 ms to load) only for a configuration that declares some.
  let maintenance: DesiredMaintenance[] | undefined;
  if (resolved.maintenance.length > 0) {
    const { buildMaintenance, checkMaintenance } = await import('./maintenance.js');
    diagnostics.push(...checkMaintenance(resolved, opts.now ?? Date.now()));
    maintenance = resolved.maintenance.map(buildMaintenance);
  }

  // A bad default is found once per item it applies to; the user needs to hear it once.
  const unique = [...new Map(diagnostics.map((d) => [`${d.file}:${d.line}:${d.column}:${d.message}`, d])).values()];
  if (unique.some(isError)) return { diagnostics: sortDiagnostics(unique) };
  return { state: buildState(resolved, maintenance), warnings: sortDiagnostics(unique) };
}
