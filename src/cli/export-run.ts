/**
 * `monsync export`: read the account, export (src/export), print or write the files. Progress and
 * warnings go to stderr so stdout can be redirected into a file.
 *
 * `--out DIR` writes the files into a temporary directory next to DIR and moves them into place at
 * the end: a new DIR is one rename, into an existing DIR a rename per file. An export stopped
 * half way (SIGINT, or SIGTERM from a CI system) removes the temporary directory, says so and exits
 * 130 / 143: a directory holding part of an account would make the next plan delete the rest.
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { MAIN_FILE, UNGROUPED_FILE } from '../export/index.js';
import { schemaRefFor } from '../export/schema-path.js';
import { UsageError, UserError } from '../util/errors.js';
import { plural } from '../util/plural.js';
import { redact } from '../util/redact.js';
import { commandContext, type CommandContext, type ConnectionOptions } from '../workflow/context.js';
import { exportFlow } from '../workflow/export.js';
import type { CommandIo } from './output.js';
import { printProgress } from './progress.js';

export interface ExportOptions extends ConnectionOptions {
  out?: string;
  match?: string[];
  owner: string;
  force?: boolean;
}

type Target = { kind: 'stdout' } | { kind: 'file'; path: string } | { kind: 'dir'; path: string };

export async function runExport(opts: ExportOptions, io: CommandIo, ctx: CommandContext = commandContext(io, [], opts)): Promise<number> {
  const shown = (path: string) => shownFrom(io.cwd, path);
  const target = outTarget(opts.out, io.cwd);
  if (!opts.owner.trim()) throw new UsageError('--owner must not be empty');
  // Refuse before reading the account: a slow read followed by "file exists" wastes the user's time.
  if (target.kind === 'file' && existsSync(target.path) && !opts.force) {
    throw new UserError(`${shown(target.path)} exists; give --force to overwrite it`);
  }
  if (target.kind === 'dir' && !opts.force) {
    const fixed = [MAIN_FILE, UNGROUPED_FILE].map((n) => join(target.path, n)).filter((p) => existsSync(p));
    if (fixed.length > 0) {
      throw new UserError(`${shown(target.path)} already holds an export; give --force to overwrite it`, {
        details: fixed.map((p) => `  - ${shown(p)}`),
      });
    }
  }

  const stop = new Interruption(io, target.kind === 'stdout' ? null : shown(target.path));
  try {
    return await exportTo(ctx, target, opts, io, stop, shown);
  } finally {
    stop.dispose();
  }
}

/**
 * SIGINT / SIGTERM while exporting: remove the temporary file or directory written so far, say so,
 * exit 130 / 143. While the files are moved into place (a few renames) a signal waits for them.
 */
class Interruption {
  /** The temporary file or directory to remove when stopped. */
  temp: string | null = null;
  private moving = false;
  private deferred: NodeJS.Signals | null = null;
  private readonly handler = (signal: NodeJS.Signals) => this.stop(signal);

  constructor(
    private readonly io: CommandIo,
    private readonly target: string | null,
  ) {
    process.on('SIGINT', this.handler);
    process.on('SIGTERM', this.handler);
  }

  /** Runs `move` with signals held back; exits after it if one came meanwhile. */
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

  private stop(signal: NodeJS.Signals): void {
    if (this.moving) {
      this.deferred = signal;
      return;
    }
    const temp = this.temp;
    if (temp !== null) rmSync(temp, { recursive: true, force: true });
    if (this.deferred) {
      this.io.err(`\nInterrupted by ${signal} once the files were in place: ${this.target} was written whole.\n`);
    } else {
      const removed = temp === null ? '' : ` (removed the temporary ${basename(temp)})`;
      this.io.err(`\nInterrupted by ${signal}: export stopped${this.target === null ? '' : `; ${this.target} is as it was`}${removed}.\n`);
    }
    process.exit(signal === 'SIGTERM' ? 143 : 130);
  }

  dispose(): void {
    process.off('SIGINT', this.handler);
    process.off('SIGTERM', this.handler);
  }
}

async function exportTo(ctx: CommandContext, target: Target, opts: ExportOptions, io: CommandIo, stop: Interruption, shown: (path: string) => string): Promise<number> {
  const outDir = target.kind === 'stdout' ? io.cwd : target.kind === 'dir' ? target.path : dirname(target.path);
  const result = await exportFlow(ctx, {
    ...(opts.match !== undefined ? { match: opts.match } : {}),
    owner: opts.owner,
    schemaPath: schemaRefFor(outDir, { isDirectory: target.kind === 'dir' }),
    split: target.kind === 'dir',
    onProgress: printProgress(io),
  });
  for (const w of result.warnings) io.err(`Warning: ${w}\n`);

  const what = `${plural(result.counts.monitors, 'SMTP monitor')}, ${plural(result.counts.alerts, 'alert')}, ${plural(result.counts.groups, 'group')}`;
  if (target.kind === 'stdout') {
    io.out(result.files[0]!.content);
    io.err(`Exported ${what}.\n`);
    return 0;
  }

  if (target.kind === 'file') {
    await mkdir(dirname(target.path), { recursive: true });
    await writeAtomic(target.path, result.files[0]!.content, Boolean(opts.force), shown, stop);
    io.err(`Exported ${what} to ${shown(target.path)}. Next: monsync plan ${shown(target.path)}\n`);
    return 0;
  }

  const paths = result.files.map((f) => join(target.path, f.name));
  const existing = paths.filter((p) => existsSync(p));
  if (existing.length > 0 && !opts.force) {
    throw new UserError(`${plural(existing.length, 'file')} of the export already exist; give --force to overwrite them`, {
      details: existing.map((p) => `  - ${shown(p)}`),
    });
  }
  // YAML files here that this export did not write would be read by `monsync plan DIR` too.
  const ours = new Set(result.files.map((f) => f.name));
  const stray = existsSync(target.path) ? (await readdir(target.path)).filter((n) => /\.ya?ml$/i.test(n) && !ours.has(n)).sort() : [];
  await mkdir(dirname(target.path), { recursive: true });
  const temp = join(dirname(target.path), `.${basename(target.path)}.export-${process.pid}.tmp`);
  stop.temp = temp;
  try {
    await mkdir(temp);
    for (const f of result.files) await writeFile(join(temp, f.name), redact(f.content), { flag: 'wx' });
    await stop.commit(async () => {
      if (!existsSync(target.path)) {
        // A new directory appears whole, or not at all.
        await rename(temp, target.path);
        return;
      }
      for (const f of result.files) await rename(join(temp, f.name), join(target.path, f.name));
      await rmdir(temp);
    });
  } catch (err) {
    // A full disk or a permission: nothing half written stays behind.
    await rm(temp, { recursive: true, force: true });
    throw err;
  }
  for (const n of stray) {
    io.err(`Warning: ${shown(join(target.path, n))} was not written by this export; \`monsync plan ${shown(target.path)}\` reads it too\n`);
  }
  io.err(
    `Exported ${what} to ${plural(result.files.length, 'file')} in ${shown(target.path)} (${MAIN_FILE} holds settings and defaults). Next: monsync plan ${shown(target.path)}\n`,
  );
  return 0;
}

/** `--out x.yaml` is a file; an existing directory, a trailing slash or no extension is a directory. */
function outTarget(out: string | undefined, cwd: string): Target {
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
