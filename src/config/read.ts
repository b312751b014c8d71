/**
 * Stage 1: find the input files and read them as text. Everything a YAML parser should never see
 * (huge, binary, non-UTF-8, empty files) stops here with a diagnostic.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { diag, WHOLE_FILE, type Diagnostic, type Position } from './diagnostics.js';

/**
 * The largest configuration file read: 64 MB. It fits the largest accounts monsync is meant for
 * (50,000 monitors with an alert each as one pretty-printed JSON inventory: about 35 MB; the 5 MB
 * it replaced refused a 10,000-monitor one) while a file far past any account stops here unparsed.
 */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;
const LIMIT_TEXT = `${MAX_FILE_BYTES} bytes, ${MAX_FILE_BYTES / 1024 / 1024} MB`;
export const DEFAULT_CONFIG_FILE = 'monsync.yaml';

export interface InputFile {
  /** Absolute path. */
  path: string;
  /** As shown to the user: relative to the working directory. */
  display: string;
  /** Known to be a regular file (from its directory's listing or the stat of the path given): not asked again. */
  regular?: boolean;
}

export interface SourceFile extends InputFile {
  text: string;
  /** Read as JSON whatever the name (a configuration given to loadConfig as data); else by the name's extension. */
  json?: boolean;
}

const START: Position = { line: 1, column: 1 };

/**
 * A path as shown to the user: relative to the working directory; one given absolute stays
 * absolute unless it is inside the working directory (`/srv/monitoring/a.yaml`, not
 * `../../srv/monitoring/a.yaml`).
 */
export function displayPath(abs: string, cwd: string, givenAbsolute = false): string {
  const rel = path.relative(cwd, abs);
  if (rel === '') return '.';
  return path.isAbsolute(rel) || (givenAbsolute && !isBelow(rel)) ? abs : rel;
}

/** Whether a path relative to a directory (`path.relative`'s answer) names something below it. */
function isBelow(rel: string): boolean {
  return rel !== '' && !path.isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${path.sep}`);
}

function errnoMessage(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a directory';
  if (code === 'ELOOP') return 'too many levels of symbolic links';
  return err instanceof Error ? err.message : String(err);
}

/**
 * A JSON configuration file (read by json.ts, strictly as JSON); any other file is read as YAML:
 * a name ending in `.json`, in any case. Compared by character codes: `/\.json$/i` tried a match at
 * every character of the whole path, a microsecond for each of 10,000 files (one per monitor).
 */
export function isJsonFile(file: string): boolean {
  const n = file.length;
  // `| 32` lowers an ASCII letter's case and makes nothing else one of these letters.
  return (
    n >= 5 &&
    file.charCodeAt(n - 5) === 46 &&
    (file.charCodeAt(n - 4) | 32) === 106 &&
    (file.charCodeAt(n - 3) | 32) === 115 &&
    (file.charCodeAt(n - 2) | 32) === 111 &&
    (file.charCodeAt(n - 1) | 32) === 110
  );
}

export interface ResolveOptions {
  /** Whether a directory stands for its `*.json` files too (default true; `fmt` formats YAML only). */
  json?: boolean;
}

/**
 * Turns the command-line paths into files: a directory stands for its `*.yaml`, `*.yml` and
 * `*.json` files and those of the directories below it (`filesUnder`). With no paths, `monsync.yaml` in the working directory.
 * A file named twice (directly and through its directory) is read once.
 */
export async function resolveInputs(
  paths: readonly string[],
  cwd: string,
  opts: ResolveOptions = {},
): Promise<{ files: InputFile[]; diagnostics: Diagnostic[] }> {
  const json = opts.json ?? true;
  const listed = json ? /\.(ya?ml|json)$/i : /\.ya?ml$/i;
  const files: InputFile[] = [];
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  const add = (abs: string, givenAbsolute = false, regular = false, display?: string) => {
    if (seen.has(abs)) return;
    seen.add(abs);
    const shown = display ?? displayPath(abs, cwd, givenAbsolute);
    files.push(regular ? { path: abs, display: shown, regular } : { path: abs, display: shown });
  };

  if (paths.length === 0) {
    const abs = path.resolve(cwd, DEFAULT_CONFIG_FILE);
    try {
      await stat(abs);
      add(abs);
    } catch {
      diagnostics.push(
        diag(
          DEFAULT_CONFIG_FILE,
          WHOLE_FILE,
          `no configuration given and no ${DEFAULT_CONFIG_FILE} in ${cwd}; pass config files or directories as arguments`,
        ),
      );
    }
    return { files, diagnostics };
  }

  for (const given of paths) {
    const abs = path.resolve(cwd, given);
    const absolute = path.isAbsolute(given);
    const display = displayPath(abs, cwd, absolute);
    let info;
    try {
      info = await stat(abs);
    } catch (err) {
      diagnostics.push(diag(display, WHOLE_FILE, `cannot read: ${errnoMessage(err)}`));
      continue;
    }
    if (!info.isDirectory()) {
      add(abs, absolute, info.isFile());
      continue;
    }
    const found = await filesUnder(abs, listed);
    if ('error' in found) {
      diagnostics.push(diag(displayPath(found.dir, cwd, absolute), WHOLE_FILE, `cannot read directory: ${errnoMessage(found.error)}`));
      continue;
    }
    if (found.files.length === 0) {
      diagnostics.push(diag(display, WHOLE_FILE, json ? 'directory contains no .yaml, .yml or .json files' : 'directory contains no .yaml or .yml files'));
      continue;
    }
    // The directory's display name once; each file's is joined to its path below it (no
    // `path.relative` per file). A directory shown absolute shows its files absolute too, unless
    // the working directory is below it (a file may then be inside it, and shown relative).
    const base = displayPath(abs, cwd, absolute);
    const joinable = !path.isAbsolute(base);
    const cwdBelow = !joinable && isBelow(path.relative(abs, cwd));
    for (const file of found.files) {
      const display = joinable ? (base === '.' ? file.relative : base + path.sep + file.relative) : cwdBelow ? undefined : file.path;
      add(file.path, absolute, file.regular, display);
    }
  }
  return { files, diagnostics };
}

/**
 * The configuration files in a directory and the directories below it, sorted by their path
 * relative to it (`eu/a.yaml` after `a.yaml`, before `us/a.yaml`). Hidden directories (`.git`,
 * `.github`) and `node_modules` are not entered: they hold other tools' YAML. Symbolic links to
 * directories are not followed (a loop would never end); links to files are read.
 *
 * The order is made while walking: each directory's files sorted by name come first, then each of
 * its directories' contents in the order of their names (depth first). That is the order of the
 * paths compared name by name, a file before the directories beside it, without a comparison of
 * whole paths: sorting 10,002 paths as lists of names, ~135,000 comparisons each building a pair,
 * was a third of the time of finding the files of one file per monitor. Paths are joined as text
 * (`path.join` normalised each of them again), each file's path below `root` once.
 */
export async function filesUnder(root: string, listed: RegExp): Promise<{ files: Array<{ path: string; relative: string; regular: boolean }> } | { dir: string; error: unknown }> {
  const files: Array<{ path: string; relative: string; regular: boolean }> = [];
  const walk = async (dir: string, relative: string): Promise<{ dir: string; error: unknown } | undefined> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      return { dir, error };
    }
    const here: Array<{ name: string; regular: boolean }> = [];
    const below: string[] = [];
    for (const e of entries) {
      if (e.isDirectory()) {
        if (!e.name.startsWith('.') && e.name !== 'node_modules') below.push(e.name);
      } else if (listed.test(e.name) && (e.isFile() || e.isSymbolicLink())) {
        here.push({ name: e.name, regular: e.isFile() });
      }
    }
    // Names in one directory differ: `<` (UTF-16 code units) as the comparison of paths had it.
    here.sort((a, b) => (a.name < b.name ? -1 : 1));
    below.sort((a, b) => (a < b ? -1 : 1));
    // `dir` is resolved: it ends in a separator only at the root of a file system.
    const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
    for (const f of here) files.push({ path: prefix + f.name, relative: relative + f.name, regular: f.regular });
    for (const name of below) {
      const failed = await walk(prefix + name, relative + name + path.sep);
      if (failed) return failed;
    }
    return undefined;
  };
  const failed = await walk(root, '');
  return failed ?? { files };
}

/** 1-based line and column of a byte offset (columns in characters, as editors count them). */
function positionOfByte(bytes: Uint8Array, offset: number): Position {
  const before = new TextDecoder('utf-8').decode(bytes.subarray(0, offset));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines[lines.length - 1] ?? '').length + 1 };
}

/** Offset of the first byte that does not belong to a well-formed UTF-8 sequence, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let cp = b & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/** A file refused, and why (a function of its own: a closure over each file read was garbage for nothing). */
function refused(input: InputFile, message: string, pos: Position = START): { diagnostic: Diagnostic } {
  return { diagnostic: diag(input.display, pos, message) };
}

/** The buffer files are read into, grown to the largest read so far. */
let scratch = Buffer.allocUnsafe(64 * 1024);

/** One decoder for every file: `decode` without `stream` keeps no state from call to call. */
const UTF8 = new TextDecoder('utf-8');

/** Reads one file, refusing what cannot be a configuration file. */
export async function readSourceFile(input: InputFile): Promise<{ source: SourceFile } | { diagnostic: Diagnostic }> {
  return readSourceFileSync(input);
}

/**
 * readSourceFile without a promise: the loader reads thousands of small files one after the
 * other, and nothing in a read waits (see below), so a promise per file was pure cost.
 */
export function readSourceFileSync(input: InputFile): { source: SourceFile } | { diagnostic: Diagnostic } {
  // Synchronous reads: a configuration of one file per monitor is thousands of small files, and
  // each asynchronous read was four trips through libuv's thread pool and a FileHandle for the
  // garbage collector (validate of 2,000 files: 1.8x the time of the same monitors in 4 files).
  let fd: number;
  try {
    fd = openSync(input.path, 'r');
  } catch (err) {
    return refused(input, `cannot read: ${errnoMessage(err)}`, WHOLE_FILE);
  }
  let bytes: Buffer;
  try {
    // A file known to be regular is not asked again (fstat builds four Date objects: 40 us a file).
    if (!input.regular) {
      const info = fstatSync(fd);
      if (!info.isFile()) return refused(input, 'not a regular file', WHOLE_FILE);
      if (info.size > MAX_FILE_BYTES) return refused(input, `file is too large (${info.size} bytes; the limit is ${LIMIT_TEXT})`, WHOLE_FILE);
    }
    // Read into one buffer kept for every file (the text is decoded out of it before the next
    // file is read: nothing here waits), at most one byte past the limit.
    let buffer = scratch;
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, MAX_FILE_BYTES + 1));
        buffer.copy(bigger, 0, 0, length);
        buffer = scratch = bigger;
      }
      const asked = buffer.length - length;
      const bytesRead = readSync(fd, buffer, length, asked, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      // A regular file read short is read to its end: no call more to be told so (one a file).
      if (input.regular && bytesRead < asked) break;
      if (length > MAX_FILE_BYTES) {
        // Not asked before (a regular file): its size, for the message.
        const size = input.regular ? fstatSync(fd).size : 0;
        if (size > MAX_FILE_BYTES) return refused(input, `file is too large (${size} bytes; the limit is ${LIMIT_TEXT})`, WHOLE_FILE);
        return refused(input, `file is too large (over ${LIMIT_TEXT})`, WHOLE_FILE);
      }
    }
    bytes = buffer.subarray(0, length);
  } catch (err) {
    return refused(input, `cannot read: ${errnoMessage(err)}`, WHOLE_FILE);
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Nothing was written: a failed close loses nothing.
    }
  }

  if (bytes.length === 0) return refused(input, 'file is empty; a configuration file starts with "version: 1"');
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return refused(input, 'file is encoded as UTF-16; save it as UTF-8');
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    return refused(
      input,
      'file looks binary (it contains a NUL byte); configuration files are UTF-8 text',
      positionOfByte(bytes, nul),
    );
  }
  // ASCII, as most configuration files are, is UTF-8 and Latin-1 alike: copied out as Latin-1 (one
  // byte a character) it needs no check more and no decoder (TextDecoder took twice as long).
  let text: string;
  if (isAscii(bytes)) text = bytes.toString('latin1');
  else {
    // The native check answers for the whole file; only a bad one is walked to find where.
    const bad = isUtf8(bytes) ? -1 : firstInvalidUtf8(bytes);
    if (bad >= 0) {
      return refused(
      input,
        `file is not valid UTF-8 (byte 0x${bytes[bad]!.toString(16).padStart(2, '0')} at offset ${bad}); save it as UTF-8`,
        positionOfByte(bytes, bad),
      );
    }
    // TextDecoder drops a leading byte-order mark, which is legal UTF-8 but not part of the YAML.
    text = UTF8.decode(bytes);
  }
  // Not `text.trim() === ''`, which copies the text to look at it (\S is trim's set of spaces).
  if (!/\S/.test(text)) return refused(input, 'file is empty; a configuration file starts with "version: 1"');
  // The input's fields written out, not spread: a spread of 10,000 inputs was a tenth of the read.
  return { source: input.regular === undefined ? { path: input.path, display: input.display, text } : { path: input.path, display: input.display, regular: input.regular, text } };
}
