/** What the fmt tests share: the formatter with the package's schema, and the state a text loads into. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { formatConfigText, type FormatResult } from '../../src/config/format/format.js';
import { readConfigShape, type Shape } from '../../src/config/format/shape.js';

let shape: Shape | undefined;

export async function format(text: string, file = 'monsync.yaml'): Promise<FormatResult> {
  shape ??= await readConfigShape();
  return formatConfigText(text, { shape, file });
}

/** The formatted text; fails the test with the diagnostics when the formatter refused. */
export async function formatted(text: string): Promise<string> {
  const r = await format(text);
  if (!r.ok) expect.fail(r.diagnostics.map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`).join('\n'));
  return r.text;
}

/** Drops where things were written: positions move when a file is formatted, by design. */
export function stripSources(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripSources);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'source').map(([k, v]) => [k, stripSources(v)]));
  }
  return value;
}

/**
 * What the loader makes of these files (name -> text) in a fresh directory: the desired state
 * without positions, or the diagnostics' messages. Both sides of a comparison go through here.
 */
export async function loaded(files: Record<string, string>, env: Record<string, string> = {}): Promise<unknown> {
  const dir = await mkdtemp(path.join(tmpdir(), 'monsync-fmt-'));
  try {
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
    const result = await loadConfig(Object.keys(files).sort(), { cwd: dir, env });
    // Messages may point at other places in the file ("at line 8, column 5"), which move too.
    const message = (d: { file: string; message: string }) => `${d.file}: ${d.message.replace(/line \d+, column \d+/g, 'line L, column C')}`;
    if ('diagnostics' in result) return { diagnostics: result.diagnostics.map(message) };
    return { state: stripSources(result.state), warnings: result.warnings.map(message) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
