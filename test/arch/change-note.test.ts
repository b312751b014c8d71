/**
 * A change's `note` is display only (src/plan/types.ts, ChangeNote); what apply decides on is its
 * `effects`. Nothing that runs or guards a plan reads a note's fields, so a note added for a reader
 * can never change what apply does. (Terraform marks its action reasons display-only likewise.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');
const DECIDING = ['apply', 'workflow'];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

describe('change notes are display only', () => {
  it('no file of src/apply or src/workflow reads a field of a change note', () => {
    const reads = DECIDING.flatMap((part) =>
      files(join(SRC, part)).flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${f.slice(SRC.length + 1)}:${i + 1}` }))
          .filter(({ line }) => /\bnote[?!]?\.[a-z_]+/.test(line) && !line.trimStart().startsWith('*') && !line.trimStart().startsWith('//'))
          .map(({ at, line }) => `${at}: ${line.trim()}`),
      ),
    );
    expect(reads).toEqual([]);
  });

  it('the safety check reads the effects', () => {
    expect(readFileSync(join(SRC, 'apply', 'safety.ts'), 'utf8')).toMatch(/\.effects\?\.cascade_alerts/);
  });
});
