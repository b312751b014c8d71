/**
 * What `monsync fmt [PATH...] [--check] [--diff]` does: rewrite configuration files in the canonical
 * layout (src/config/format/format.ts says what that is and what is kept). Files are found as
 * validate and plan find them (the context's paths). A file that does not parse is a problem
 * (`file:line:column: message` lines) and is left alone; every other file is still formatted. Each
 * file that changes (or, `check`, would) is told as a `formatted` event, with its diff when asked.
 */
import { pathText } from '../util/safe-text.js';
import type { CommandContext } from './context.js';
import { NO_EVENTS, type Events } from './events.js';

export interface FmtOptions {
  /** Write nothing; exit 1 when a file is not in the canonical layout (for CI). */
  check?: boolean;
  /** Print a unified diff of each change instead of writing it. */
  diff?: boolean;
}

export interface FmtOutcome {
  /** The files not (yet, with check or diff) in the canonical layout. */
  changed: string[];
  /** Every problem, as `file:line:column: message` lines. */
  problems: string[];
}

export async function fmtFlow(ctx: CommandContext, opts: FmtOptions, events: Events = NO_EVENTS): Promise<FmtOutcome> {
  const { readFile } = await import('node:fs/promises');
  const { isJsonFile, resolveInputs, readSourceFile } = await import('../config/read.js');
  const { formatDiagnosticLines, diag } = await import('../config/diagnostics.js');
  const { formatConfigText } = await import('../config/format/format.js');
  const { readConfigShape } = await import('../config/format/shape.js');
  const { cwd } = ctx.io;

  const shape = await readConfigShape();
  // A directory stands for its YAML files here: JSON files are written by programs, which own their layout.
  const inputs = await resolveInputs(ctx.paths, cwd, { json: false });
  const problems = [...inputs.diagnostics];
  const changed: string[] = [];
  for (const input of inputs.files) {
    if (isJsonFile(input.path)) {
      problems.push(diag(input.display, { line: 1, column: 1 }, 'fmt formats YAML files only; a JSON file is left as the program that writes it wrote it'));
      continue;
    }
    const read = await readSourceFile(input);
    if ('diagnostic' in read) {
      problems.push(read.diagnostic);
      continue;
    }
    const result = formatConfigText(read.source.text, { shape, file: input.display });
    if (!result.ok) {
      problems.push(...result.diagnostics);
      continue;
    }
    if (result.text === read.source.text) continue;
    changed.push(input.display);
    if (opts.diff) {
      events({ kind: 'formatted', file: pathText(input.display), diff: await unifiedDiff(pathText(input.display), read.source.text, result.text) });
      continue;
    }
    if (!opts.check) {
      try {
        // The byte-order mark the reader dropped goes back: an editor put it there.
        const bom = (await readFile(input.path)).subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]));
        await writeInPlace(input.path, bom ? `\ufeff${result.text}` : result.text);
      } catch (e) {
        changed.pop();
        problems.push(diag(input.display, { line: 1, column: 1 }, `cannot write the formatted file: ${reason(e)}`));
        continue;
      }
    }
    events({ kind: 'formatted', file: pathText(input.display), diff: null });
  }
  return { changed, problems: formatDiagnosticLines(problems) };
}

/** `--- a/file` / `+++ b/file` hunks, control characters made visible (the file may come from anyone's pull request). */
async function unifiedDiff(file: string, before: string, after: string): Promise<string> {
  const { createTwoFilesPatch } = await import('diff');
  const { escapeControl } = await import('../util/safe-text.js');
  const patch = createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after, undefined, undefined, { context: 3 });
  return patch
    .split('\n')
    .filter((line, i) => !(i === 0 && /^=+$/.test(line)))
    .map(escapeControl)
    .join('\n');
}

/** Replaces the file in one step (a crash leaves the old or the new text, never half), keeping its mode and any symlink. */
async function writeInPlace(file: string, text: string): Promise<void> {
  const { chmod, realpath, rename, rm, stat, writeFile } = await import('node:fs/promises');
  const path = await import('node:path');
  const real = await realpath(file);
  const { mode } = await stat(real);
  const tmp = path.join(path.dirname(real), `.${path.basename(real)}.${process.pid}.fmt.tmp`);
  try {
    await writeFile(tmp, text, 'utf8');
    await chmod(tmp, mode & 0o7777);
    await rename(tmp, real);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
}

function reason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'read-only file system';
  if (code === 'ENOSPC') return 'no space left on the device';
  return e instanceof Error ? e.message : String(e);
}
