/**
 * The house's arrows, checked against the sources: which folder of src/ may import which, as the table
 * "Allowed imports" in CONTRIBUTING.md states it (the table is the rule; this test reads it, so the
 * document and the check cannot drift apart), and no import cycle between files.
 *
 * Every import counts: static, `export ... from`, type-only and lazy `import('...')`, because each one
 * ties the importer to the imported module's shape even where it costs nothing at run time.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

/** Relative specifiers of one file, resolved to the .ts files they name (packages are not ours to check). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec || !spec.startsWith('.')) continue;
    out.push(resolve(dirname(file), spec).replace(/\.js$/, '.ts'));
  }
  return out;
}

/** The part of src/ a file belongs to: its top folder, or for a file right under src/ its own name. */
function partOf(file: string): string {
  const rel = relative(SRC, file).split(sep);
  return rel.length === 1 ? rel[0]!.replace(/\.ts$/, '') : rel[0]!;
}

/** `| `folder` | `a`, `b` |` rows of the "Allowed imports" table in CONTRIBUTING.md. */
function allowedTable(): Map<string, Set<string>> {
  const doc = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
  const start = doc.indexOf('### Allowed imports');
  expect(start, 'CONTRIBUTING.md has a section "### Allowed imports"').toBeGreaterThanOrEqual(0);
  const table = new Map<string, Set<string>>();
  for (const line of doc.slice(start).split('\n').slice(1)) {
    if (line.startsWith('#')) break;
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 4 || !cells[1]!.startsWith('`')) continue;
    const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/^src\//, '').replace(/\/$/, ''));
    const [from] = names(cells[1]!);
    table.set(from!, new Set(names(cells[2]!)));
  }
  return table;
}

const files = sourceFiles(SRC);
const graph = new Map(files.map((f) => [f, importsOf(f)]));

describe('the house (src/)', () => {
  it('imports across folders only along the arrows CONTRIBUTING.md allows', () => {
    const table = allowedTable();
    const wrong: string[] = [];
    for (const [file, deps] of graph) {
      const from = partOf(file);
      for (const dep of deps) {
        const to = partOf(dep);
        if (to === from) continue;
        const allowed = table.get(from);
        if (!allowed) wrong.push(`${relative(ROOT, file)}: src/${from} is not in the table`);
        else if (!allowed.has(to)) wrong.push(`${relative(ROOT, file)} imports ${relative(ROOT, dep)} (src/${from} -> src/${to})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('names in the table only parts of src/ that exist', () => {
    const parts = new Set(files.map(partOf));
    const unknown = [...allowedTable()].flatMap(([from, to]) => [from, ...to]).filter((p) => !parts.has(p));
    expect([...new Set(unknown)]).toEqual([]);
  });

  it('has no import cycle between files', () => {
    // Tarjan's strongly connected components over the file graph; every component of more than one file is a cycle.
    let index = 0;
    const idx = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const cycles: string[][] = [];
    const visit = (v: string): void => {
      idx.set(v, index);
      low.set(v, index++);
      stack.push(v);
      onStack.add(v);
      for (const w of graph.get(v) ?? []) {
        if (!graph.has(w)) continue;
        if (!idx.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
      }
      if (low.get(v) === idx.get(v)) {
        const comp: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          comp.push(relative(ROOT, w));
        } while (w !== v);
        if (comp.length > 1) cycles.push(comp.sort());
      }
    };
    for (const f of files) if (!idx.has(f)) visit(f);
    expect(cycles).toEqual([]);
  });

  it('keeps command runners to parsing, a workflow and rendering: no src/cli file but fmt, validate and the emulator\'s imports api/, config/, plan/ or apply/', () => {
    // What a command does goes through the command context (src/workflow/context.ts) and a workflow;
    // fmt and validate are offline file tools, the emulator command is the emulator's front door.
    const exempt = /^(fmt|validate|emulator)(-run)?\.ts$/;
    const below = new Set(['api', 'config', 'plan', 'apply']);
    const wrong: string[] = [];
    for (const [file, deps] of graph) {
      const rel = relative(SRC, file).split(sep);
      if (rel[0] !== 'cli' || exempt.test(rel[1]!)) continue;
      for (const dep of deps) if (below.has(partOf(dep))) wrong.push(`${relative(ROOT, file)} imports ${relative(ROOT, dep)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('reads the account in one place: only src/workflow/ imports readLive (src/plan/read-live.ts)', () => {
    const readLive = join(SRC, 'plan', 'read-live.ts');
    const importers = [...graph]
      .filter(([file, deps]) => deps.includes(readLive) && partOf(file) !== 'plan')
      .map(([file]) => relative(ROOT, file))
      .filter((f) => !f.startsWith(join('src', 'workflow') + sep));
    expect(importers).toEqual([]);
  });

  it('loads a configuration in one place: outside src/config, only the command context, validate, fmt and the library call loadConfig', () => {
    const config = [join(SRC, 'config', 'index.ts'), join(SRC, 'config', 'load.ts')];
    const allowed = new Set(['src/workflow/context.ts', 'src/cli/validate-run.ts', 'src/cli/fmt-run.ts', 'src/index.ts'].map((f) => f.split('/').join(sep)));
    const callers = [...graph]
      .filter(([file, deps]) => partOf(file) !== 'config' && deps.some((d) => config.includes(d)) && /\bloadConfig\b/.test(readFileSync(file, 'utf8')))
      .map(([file]) => relative(ROOT, file))
      .filter((f) => !allowed.has(f));
    expect(callers).toEqual([]);
  });

  it('reads every import of a file, lazy and type-only ones too', () => {
    // The checks above are only as good as the import reader: pin it on a known file.
    const main = graph.get(join(SRC, 'cli', 'main.ts'))!.map((f) => relative(SRC, f));
    expect(main).toContain(join('cli', 'commands.ts'));
    expect(main).toContain(join('util', 'redact.ts'));
  });
});
