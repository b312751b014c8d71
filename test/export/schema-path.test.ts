import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot, schemaRefFor } from '../../src/export/schema-path.js';

let base: string;

async function touch(path: string, text = '{}'): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'monsync-schema-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('schemaRefFor', () => {
  it('finds this package from its own module', () => {
    expect(packageRoot()).toBe(join(import.meta.dirname, '..', '..'));
  });

  it('inside the monsync repository: the schema it ships', async () => {
    const pkg = join(base, 'repo');
    await touch(join(pkg, 'package.json'));
    await touch(join(pkg, 'schemas', 'monsync.schema.json'));
    expect(schemaRefFor(join(pkg, 'examples', 'mine'), { packageRoot: pkg, isDirectory: true })).toBe('../../schemas/monsync.schema.json');
  });

  it('in a project that installed monsync: node_modules/monsync, relative', async () => {
    const project = join(base, 'app');
    await touch(join(project, 'package.json'));
    const installed = join(project, 'node_modules', 'monsync');
    await touch(join(installed, 'schemas', 'monsync.schema.json'));
    expect(schemaRefFor(join(project, 'monitoring'), { packageRoot: installed, isDirectory: true })).toBe('../node_modules/monsync/schemas/monsync.schema.json');
    // Run through npx from a cache: the project's installed copy is still what gets referenced.
    expect(schemaRefFor(join(project, 'monitoring'), { packageRoot: join(base, 'npx-cache', 'monsync'), isDirectory: true })).toBe(
      '../node_modules/monsync/schemas/monsync.schema.json',
    );
    expect(schemaRefFor(project, { packageRoot: null })).toBe('node_modules/monsync/schemas/monsync.schema.json');
  });

  it('in a project without monsync installed: where `npm install -D monsync` will put it', async () => {
    const project = join(base, 'repo2');
    await mkdir(join(project, '.git'), { recursive: true });
    expect(schemaRefFor(join(project, 'ops', 'monitoring'), { packageRoot: null, isDirectory: true })).toBe(
      '../../node_modules/monsync/schemas/monsync.schema.json',
    );
  });
});

describe('schemaRefFor when the project has no monsync of its own', () => {
  it('points at the schema of the monsync that ran the export (a clone or a global install), a path that exists', async () => {
    const project = join(base, 'repo3');
    await mkdir(join(project, '.git'), { recursive: true });
    const clone = join(base, 'elsewhere', 'monsync');
    await touch(join(clone, 'package.json'));
    await touch(join(clone, 'schemas', 'monsync.schema.json'));
    const out = join(project, 'monitoring');
    const ref = schemaRefFor(out, { packageRoot: clone, isDirectory: true });
    expect(ref).toBe('../../elsewhere/monsync/schemas/monsync.schema.json');
    expect(existsSync(join(out, ref))).toBe(true);
  });
});
