/**
 * The `$schema` reference written at the top of exported files, relative to the directory they
 * are written to. The reference is committed with the YAML, so it must resolve on a colleague's
 * machine and in CI too, not just here:
 *
 * 1. monsync inside the project (its own repository, or `node_modules/monsync` of the project):
 *    the relative path to the schema it ships.
 * 2. Otherwise an installed copy found in a `node_modules/monsync` above the directory.
 * 3. Otherwise the schema of the monsync that runs (a clone elsewhere, a global install, an npx
 *    cache), relative: a path that exists for the user who exported, so the editor finds it now;
 *    once the project installs monsync, a re-export points at that copy (2).
 * 4. Only when that cannot be found either: where `npm install -D monsync` in the project root will
 *    put it (the nearest directory with a package.json or .git, else the parent of a written
 *    directory / the directory of a written file).
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { packageDir } from '../util/own-files.js';

export const SCHEMA_IN_PACKAGE = join('schemas', 'monsync.schema.json');

/** The root of this monsync package (holds package.json and schemas/), or null inside the single executable. */
export function packageRoot(): string | null {
  let dir = packageDir();
  if (dir === null) return null;
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, SCHEMA_IN_PACKAGE))) return dir;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

export interface SchemaRefOptions {
  /** Root of the monsync package in use (default: found from this module). */
  packageRoot?: string | null;
  /** True when the export is a directory of files (its parent is then the likely project root). */
  isDirectory?: boolean;
}

export function schemaRefFor(outDir: string, opts: SchemaRefOptions = {}): string {
  const dir = resolve(outDir);
  const pkg = opts.packageRoot === undefined ? packageRoot() : opts.packageRoot;
  const project = projectRoot(dir);

  if (pkg) {
    const schema = join(pkg, SCHEMA_IN_PACKAGE);
    if (project && isInside(schema, project)) return toRef(relative(dir, schema));
  }
  for (let d = dir; ; d = dirname(d)) {
    const candidate = join(d, 'node_modules', 'monsync', SCHEMA_IN_PACKAGE);
    if (existsSync(candidate)) return toRef(relative(dir, candidate));
    if (dirname(d) === d) break;
  }
  if (pkg && existsSync(join(pkg, SCHEMA_IN_PACKAGE))) return toRef(relative(dir, join(pkg, SCHEMA_IN_PACKAGE)));
  const base = project ?? (opts.isDirectory ? dirname(dir) : dir);
  return toRef(relative(dir, join(base, 'node_modules', 'monsync', SCHEMA_IN_PACKAGE)));
}

function projectRoot(dir: string): string | null {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, 'package.json')) || isDirLike(join(d, '.git'))) return d;
    if (dirname(d) === d) return null;
  }
}

function isDirLike(p: string): boolean {
  try {
    // A worktree's .git is a file; both mark a repository root.
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

function isInside(p: string, dir: string): boolean {
  const rel = relative(dir, p);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** Forward slashes on every platform (the reference is committed and read by editors anywhere). */
function toRef(rel: string): string {
  return rel.split(sep).join('/');
}
