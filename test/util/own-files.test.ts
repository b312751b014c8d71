import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docFilesOnDisk } from '../../src/emulator/docs.js';
import { IN_BINARY, OWN_FILES, ownFile, ownFilesOnDisk, packageDir } from '../../src/util/own-files.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe("monsync's own files, outside the single executable", () => {
  it('are read from the package the module belongs to', () => {
    expect(IN_BINARY).toBe(false);
    expect(packageDir()).toBe(ROOT);
    for (const name of OWN_FILES) expect(ownFile(name).equals(readFileSync(join(ROOT, name)))).toBe(true);
  });

  it('are all on disk where the build takes them from, under package-relative names', () => {
    const files = { ...ownFilesOnDisk(), ...docFilesOnDisk() };
    expect(Object.keys(files)).toEqual(expect.arrayContaining(['schemas/monsync.schema.json', 'schemas/openapi.json', 'swagger-ui-dist/swagger-ui-bundle.js']));
    for (const [name, path] of Object.entries(files)) {
      expect(existsSync(path), `${name}: ${path}`).toBe(true);
      expect(path.endsWith(name.replace(/^swagger-ui-dist\//, ''))).toBe(true);
    }
  });
});
