import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { loadConfig, type Diagnostic, type LoadOptions, type LoadResult } from '../../src/config/index.js';
import type { PathSegment } from '../../src/config/positions.js';
import type { DesiredState } from '../../src/model/desired.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** A fresh directory holding `files` (name -> contents; names may contain sub-directories). */
export async function writeTree(files: Record<string, string | Uint8Array>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'monsync-config-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), content);
  }
  return dir;
}

/** Loads `files` from a fresh directory (all of them, in name order, unless `paths` says otherwise). */
export async function loadFiles(
  files: Record<string, string | Uint8Array>,
  opts: LoadOptions & { paths?: string[] } = {},
): Promise<LoadResult & { dir: string }> {
  const dir = await writeTree(files);
  const paths = opts.paths ?? Object.keys(files).sort();
  const result = await loadConfig(paths, { env: opts.env ?? {}, cwd: dir, fullPath: opts.fullPath });
  return { ...result, dir };
}

export type Brief = Pick<Diagnostic, 'file' | 'line' | 'column' | 'message'> & { severity?: 'warning' };

export function brief(d: Diagnostic): Brief {
  const b: Brief = { file: d.file, line: d.line, column: d.column, message: d.message };
  if (d.severity === 'warning') b.severity = 'warning';
  return b;
}

export function diagnosticsOf(result: LoadResult): Diagnostic[] {
  if ('state' in result) throw new Error(`expected diagnostics, got a state with ${result.state.monitors.length} monitors`);
  return result.diagnostics;
}

export function stateOf(result: LoadResult): DesiredState {
  if (!('state' in result)) throw new Error(`expected a state, got:\n${result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`).join('\n')}`);
  return result.state;
}

/** A complete monitor in block style, indented as an item of `monitors:`. */
export function monitorYaml(label: string, extra = ''): string {
  return (
    `  - label: ${label}\n` +
    `    ip_address: mx.example.com\n` +
    `    test_account: probe@example.com\n` +
    `    time_zone: Europe/London\n` +
    `    timer: 5\n` +
    extra
  );
}

/** Every path into the data, plus paths that go one step too far or name missing keys and items: what position checks ask. */
export function paths(data: unknown, at: PathSegment[] = [], out: PathSegment[][] = []): PathSegment[][] {
  out.push(at, [...at, 'missing'], [...at, 99999], [...at, '0']);
  if (Array.isArray(data)) data.forEach((v, i) => paths(v, [...at, i], out));
  else if (data && typeof data === 'object') for (const [k, v] of Object.entries(data)) paths(v, [...at, k], out);
  return out;
}
