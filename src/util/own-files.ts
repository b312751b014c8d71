/**
 * The files of its own that monsync reads at run time, found one way wherever it runs:
 *
 * - from a clone or an installed package, on disk, relative to the package's root (this module is
 *   src/util/ or dist/util/, two levels below it);
 * - as the single executable (`npm run build:binary`), from the executable's SEA assets, stored
 *   under the same package-relative names (scripts/build-binary.mjs embeds OWN_FILES).
 *
 * Code that needs such a file asks for it here by that name instead of resolving `import.meta.url`
 * itself: inside the executable `import.meta.url` is the executable's own path, and nothing of the
 * package is on disk. (src/emulator reads its files the same way in emulator/docs.ts: it imports
 * nothing of the rest of src/.)
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { getAsset, isSea } from 'node:sea';
import { fileURLToPath } from 'node:url';

/** True inside the single executable. */
export const IN_BINARY: boolean = isSea();

/** Every file asked for through `ownFile`, by its path in the package: what the executable embeds. */
export const OWN_FILES = ['schemas/monsync.schema.json'] as const;

export type OwnFile = (typeof OWN_FILES)[number];

/** The package's root directory (package.json, schemas/), or null inside the executable, where there is none on disk. */
export function packageDir(): string | null {
  return IN_BINARY ? null : ROOT;
}

const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

/** The bytes of one of the package's files, from disk or from the executable. */
export function ownFile(name: OwnFile): Buffer {
  return IN_BINARY ? Buffer.from(getAsset(name)) : readFileSync(join(ROOT, name));
}

/** Where the build finds each embedded file in this clone, by asset name. */
export function ownFilesOnDisk(): Record<string, string> {
  return Object.fromEntries(OWN_FILES.map((name) => [name, join(ROOT, name)]));
}
