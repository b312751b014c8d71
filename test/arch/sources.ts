/** The TypeScript files under a folder, sorted, for the tests that read src/ as text. `skip`: folder names left out. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function sourceFiles(dir: string, skip: readonly string[] = []): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (!skip.includes(name)) out.push(...sourceFiles(p, skip));
    } else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}
