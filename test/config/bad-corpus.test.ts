/**
 * One small bad file per case under test/fixtures/bad/. Each starts with `# expect: L:C: message`
 * lines: exactly the diagnostics the loader must report for it, in order.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';

const dir = fileURLToPath(new URL('../fixtures/bad/', import.meta.url));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();
const ENV = { MONSYNC_REGION: 'eu', EMPTY_VAR: '' };

describe('bad configuration corpus', () => {
  it('has at least 60 cases', () => {
    expect(files.length).toBeGreaterThanOrEqual(60);
  });

  it.each(files)('%s', async (name) => {
    const text = readFileSync(path.join(dir, name), 'utf8');
    const expected = [...text.matchAll(/^# expect: (\d+):(\d+): (.*)$/gm)].map((m) => ({
      file: name,
      line: Number(m[1]),
      column: Number(m[2]),
      message: m[3],
    }));
    expect(expected.length, 'fixture declares its diagnostics').toBeGreaterThan(0);
    const result = await loadConfig([name], { cwd: dir, env: ENV });
    expect('diagnostics' in result).toBe(true);
    if (!('diagnostics' in result)) return;
    expect(result.diagnostics.map((d) => ({ file: d.file, line: d.line, column: d.column, message: d.message }))).toEqual(
      expected,
    );
  });
});
