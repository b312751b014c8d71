/**
 * What `monsync export` does: read the account through the command context (a read that contradicts
 * itself twice is refused: it would export an account with monitors or alerts missing), export it
 * (src/export: pure, files as text) and write the files, telling what it did as events.
 *
 * `out` a directory: the files are written into a temporary directory next to it and moved into
 * place at the end: a new directory is one rename, into an existing one a rename per file. An
 * export stopped half way (SIGINT, or SIGTERM from a CI system, through `CommandIo.interrupts`)
 * removes the temporary directory, says so and ends with 130 / 143: a directory holding part of an
 * account would make the next plan delete the rest. Problems are UserErrors, before the account is
 * read where they can be (a slow read followed by "file exists" wastes the user's time).
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import type { ExportResult } from '../export/index.js';
import { UsageError, UserError } from '../util/errors.js';
import { plural } from '../util/plural.js';
import { redact } from '../util/redact.js';
import type { CommandContext } from './context.js';
import { NO_EVENTS, type Events } from './events.js';
import type { CommandIo, InterruptSignal } from './io.js';

export interface ExportFlowOptions {
  /** `--out`: a file, a directory (one file per group), or stdout (absent or `-`). */
  out?: string;
  match?: string[];
  owner: string;
  /** Overwrite files that exist. */
  force?: boolean;
}

export type ExportTarget = { kind: 'stdout' } | { kind: 'file'; path: string } | { kind: 'dir'; path: string };

/** What was exported where: `text` is the file's content when it goes to stdout. */
export interface ExportDone {
  counts: ExportResult['counts'];
  target: ExportTarget;
  /** The target as shown (relative to the io's cwd). */
  shown: string;
  files: number;
  text?: string;
}

export async function exportFlow(ctx: CommandContext, opts: ExportFlowOptions, events: Events = NO_EVENTS): Promise<ExportDone> {
  const io = ctx.io;
  const shown = (path: string) => shownFrom(io.cwd, path);
  const target = outTarget(opts.out, io.cwd);
  if (!opts.owner.trim()) throw new UsageError('--owner must not be empty');
  if (target.kind === 'file' && existsSync(target.path) && !opts.force) throw new UserError(`${shown(target.path)} exists; give --force to overwrite it`);
  const { MAIN_FILE, UNGROUPED_FILE } = await import('../export/index.js');
  if (target.kind === 'dir' && !opts.force) {
    const fixed = [MAIN_FILE, UNGROUPED_FILE].map((n) => join(target.path, n)).filter((p) => existsSync(p));
    if (fixed.length > 0) throw new UserError(`${shown(target.path)} already holds an export; give --force to overwrite it`, { details: fixed.map((p) => `  - ${shown(p)}`) });
  }
  const stop = new Interruption(io, target.kind === 'stdout' ? null : shown(target.path), events);
  try {
    const result = await readExport(ctx, target, opts, events);
    for (const warning of result.warnings) events({ kind: 'export-warning', warning });
    const done = { counts: result.counts, target, shown: target.kind === 'stdout' ? '' : shown(target.path), files: result.files.length };
    if (target.kind === 'stdout') return { ...done, text: result.files[0]!.content };
    if (target.kind === 'file') {
      await mkdir(dirname(target.path), { recursive: true });
      await writeAtomic(target.path, result.files[0]!.content, Boolean(opts.force), shown, stop);
    } else {
      await writeDirectory(target.path, result, Boolean(opts.force), shown, stop, events);
    }
    return done;
  } finally {
    stop.dispose();
  }
}

async function readExport(ctx: CommandContext, target: ExportTarget, opts: ExportFlowOptions, events: Events): Promise<ExportResult> {
  const [{ ExportError, exportConfig }, { AccountContradictionError }, { schemaRefFor }] = await Promise.all([
    import('../export/index.js'),
    import('../plan/consistency.js'),
    import('../export/schema-path.js'),
  ]);
  const outDir = target.kind === 'stdout' ? ctx.io.cwd : target.kind === 'dir' ? target.path : dirname(target.path);
  const api = await ctx.connect();
  try {
    const live = await ctx.readAccount(api, null, events).catch((err: unknown) => {
      throw err instanceof AccountContradictionError ? err.withConsequence('no file was written') : err;
    });
    try {
      return exportConfig(live, {
        ...(opts.match !== undefined ? { match: opts.match } : {}),
        owner: opts.owner,
        schemaPath: schemaRefFor(outDir, { isDirectory: target.kind === 'dir' }),
        split: target.kind === 'dir',
      });
    } catch (err) {
      if (err instanceof ExportError) throw new UserError(err.message, { details: err.problems.map((p) => `  - ${p}`) });
      throw err;
    }
  } finally {
    await api.close();
  }
}

async function writeDirectory(dir: string, result: ExportResult, force: boolean, shown: (path: string) => string, stop: Interruption, events: Events): Promise<void> {
  const existing = result.files.map((f) => join(dir, f.name)).filter((p) => existsSync(p));
  if (existing.length > 0 && !force) {
    throw new UserError(`${plural(existing.length, 'file')} of the export already exist; give --force to overwrite them`, { details: existing.map((p) => `  - ${shown(p)}`) });
  }
  // YAML files here that this export did not write would be read by `monsync plan DIR` too.
  const ours = new Set(result.files.map((f) => f.name));
  const stray = existsSync(dir) ? (await readdir(dir)).filter((n) => /\.ya?ml$/i.test(n) && !ours.has(n)).sort() : [];
  await mkdir(dirname(dir), { recursive: true });
  const temp = join(dirname(dir), `.${basename(dir)}.export-${process.pid}.tmp`);
  stop.temp = temp;
  try {
    await mkdir(temp);
    for (const f of result.files) await writeFile(join(temp, f.name), redact(f.content), { flag: 'wx' });
    await stop.commit(async () => {
      if (!existsSync(dir)) {
        // A new directory appears whole, or not at all.
        await rename(temp, dir);
        return;
      }
      for (const f of result.files) await rename(join(temp, f.name), join(dir, f.name));
      await rmdir(temp);
    });
  } catch (err) {
    // A full disk or a permission: nothing half written stays behind.
    await rm(temp, { recursive: true, force: true });
    throw err;
  }
  for (const n of stray) events({ kind: 'export-stray', file: shown(join(dir, n)), dir: shown(dir) });
}

/**
 * SIGINT / SIGTERM while exporting: remove the temporary file or directory written so far, say so,
 * end with 130 / 143. While the files are moved into place (a few renames) a signal waits for them.
 */
class Interruption {
  /** The temporary file or directory to remove when stopped. */
  temp: string | null = null;
  private moving = false;
  private deferred: InterruptSignal | null = null;
  private readonly release: (() => void) | undefined;

  constructor(
    private readonly io: CommandIo,
    private readonly target: string | null,
    private readonly events: Events,
  ) {
    this.release = io.interrupts?.((signal) => this.stop(signal));
  }

  /** Runs `move` with signals held back; ends after it if one came meanwhile. */
  async commit(move: () => Promise<void>): Promise<void> {
    this.moving = true;
    try {
      await move();
    } finally {
      this.moving = false;
    }
    this.temp = null;
    if (this.deferred) this.stop(this.deferred);
  }

  private stop(signal: InterruptSignal): void {
    if (this.moving) {
      this.deferred = signal;
      return;
    }
    const temp = this.temp;
    if (temp !== null) rmSync(temp, { recursive: true, force: true });
    this.events({ kind: 'export-interrupted', signal, target: this.target, removed: temp === null ? null : basename(temp), whole: this.deferred !== null });
    this.io.exit?.(signal === 'SIGTERM' ? 143 : 130);
  }

  dispose(): void {
    this.release?.();
  }
}

/** `--out x.yaml` is a file; an existing directory, a trailing slash or no extension is a directory. */
function outTarget(out: string | undefined, cwd: string): ExportTarget {
  if (out === undefined || out === '-') return { kind: 'stdout' };
  if (out.trim() === '') throw new UsageError('--out needs a file or directory name');
  const path = resolve(cwd, out);
  if (existsSync(path)) return statSync(path).isDirectory() ? { kind: 'dir', path } : { kind: 'file', path };
  if (/[\\/]$/.test(out) || extname(out) === '') return { kind: 'dir', path };
  return { kind: 'file', path };
}

/** Write to a temporary name, then rename: an interrupted export never leaves half a file. */
async function writeAtomic(path: string, content: string, force: boolean, shown: (path: string) => string, stop: Interruption): Promise<void> {
  if (!force && existsSync(path)) throw new UserError(`${shown(path)} exists; give --force to overwrite it`);
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  stop.temp = tmp;
  await writeFile(tmp, redact(content), { flag: 'wx' });
  await stop.commit(() => rename(tmp, path));
}

function shownFrom(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel === '' ? '.' : rel.startsWith('..') ? path : rel;
}
