/**
 * Stage 2: YAML text to a document that keeps source positions, and from there to plain data.
 * Problems the YAML library finds (duplicate keys, tabs, bad indentation) and shapes that must
 * never reach plain objects (prototype keys, alias bombs) become diagnostics.
 */
import {
  isAlias,
  isCollection,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  visit,
  type Document,
  type Node,
  type Scalar,
  type YAMLError,
} from 'yaml';
import { diag, type Diagnostic, type Position } from './diagnostics.js';
import { explainIndentation, reindent, type IndentationMistake } from './indentation.js';
import { bindAliases, MAX_EXPANDED_NODES, measureExpansion } from './aliases.js';
import { isMergeKey, keyText, Locator } from './locate.js';
import type { SourceFile } from './read.js';

/** Far deeper than any configuration; keeps every later recursive walk well inside the stack. */
export const MAX_DEPTH = 64;
const TOO_DEEP = `nesting is too deep (the limit is ${MAX_DEPTH} levels)`;
const MAX_SYNTAX_ERRORS = 10;

/** The first node nested deeper than MAX_DEPTH, found without recursion. */
function firstTooDeep(root: unknown): Node | undefined {
  const stack: { node: unknown; depth: number }[] = [{ node: root, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (!isCollection(node)) continue;
    if (depth >= MAX_DEPTH) return node;
    for (const item of node.items) {
      if (isPair(item)) {
        stack.push({ node: item.value, depth: depth + 1 }, { node: item.key, depth: depth + 1 });
      } else stack.push({ node: item, depth: depth + 1 });
    }
  }
  return undefined;
}

/** Keys that would reach Object.prototype machinery in plain objects. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor']);

export interface ParsedFile {
  source: SourceFile;
  doc: Document.Parsed;
  lines: LineCounter;
  locator: Locator;
  /** String values (not keys) holding "${", in document order: all that interpolation looks at. */
  templated: Scalar[];
}

function yamlErrorMessage(e: YAMLError, parsed: ParsedFile): string {
  switch (e.code) {
    case 'DUPLICATE_KEY': {
      const first = findFirstOfDuplicate(parsed, e.pos[0]);
      return first
        ? `duplicate key ${JSON.stringify(first.key)}: it is already defined at line ${first.line}, column ${first.column}`
        : 'duplicate key: a key may appear only once in a mapping';
    }
    case 'TAB_AS_INDENT':
      return 'tab character used for indentation; YAML indentation must use spaces';
    case 'MULTIPLE_DOCS':
      return 'more than one YAML document ("---") in the file; put each document in its own file';
    default: {
      // The library appends "at line L, column C:" and a source excerpt; the position is ours to give.
      const first = (e.message.split('\n')[0] ?? e.message).replace(/ at line \d+, column \d+:?\s*$/, '');
      return first.charAt(0).toLowerCase() + first.slice(1);
    }
  }
}

function findFirstOfDuplicate(parsed: ParsedFile, offset: number): { key: string; line: number; column: number } | undefined {
  let result: { key: string; line: number; column: number } | undefined;
  visit(parsed.doc, {
    Map(_k, map) {
      const seen = new Map<string, Node>();
      for (const item of map.items) {
        const text = keyText(item.key);
        if (text === undefined || isMergeKey(item.key)) continue;
        const earlier = seen.get(text);
        if (earlier && (item.key as Node).range?.[0] === offset) {
          result = { key: text, ...parsed.locator.nodeStart(earlier) };
          return visit.BREAK;
        }
        if (!earlier) seen.set(text, item.key as Node);
      }
      return undefined;
    },
  });
  return result;
}

function parseText(source: SourceFile): ParsedFile {
  const lines = new LineCounter();
  const doc = parseDocument(source.text, {
    lineCounter: lines,
    uniqueKeys: true,
    merge: true,
    prettyErrors: true,
  });
  return { source, doc, lines, locator: new Locator(source.display, doc, lines), templated: [] };
}

/** Where the library places an error. */
function errorAt(parsed: ParsedFile, e: YAMLError): Position {
  const lp = e.linePos?.[0];
  return lp ? { line: lp.line, column: lp.col } : parsed.locator.at(e.pos[0]);
}

/**
 * A line indented with a tab, as an indentation mistake: said once, and read again with spaces at
 * the indentations of the lines around it (nearest above first), so the parser's follow-on errors
 * about the same line go and only the clear one is reported.
 */
function tabIndent(lines: readonly string[], line: number, message: string): IndentationMistake {
  const indentOf = (text: string) => (/^ */.exec(text) ?? [''])[0].length;
  const around = [...lines.slice(0, line - 1).reverse(), ...lines.slice(line)].filter((l) => l.trim() !== '' && !/^ *\t/.test(l));
  return { line, column: 1, message, meant: [...new Set(around.map(indentOf))] };
}

/**
 * The parser's errors as diagnostics. An indentation mistake is said in the user's terms at the
 * line that is wrong (indentation.ts); the text is then read again with that line where it was
 * most likely meant, so the errors it set off (the cascade) go, and further mistakes still show.
 */
function syntaxDiagnostics(first: ParsedFile): Diagnostic[] {
  const file = first.source.display;
  const out: Diagnostic[] = [];
  let parsed = first;
  let lines = first.source.text.split('\n');
  /** Errors at or above this line were seen in an earlier reading. */
  let after = 0;
  for (let round = 0; round <= MAX_SYNTAX_ERRORS; round++) {
    const errors = [...parsed.doc.errors, ...parsed.doc.warnings]
      .map((e) => ({ e, pos: errorAt(parsed, e) }))
      .filter(({ pos }) => pos.line > after)
      .sort((a, b) => a.pos.line - b.pos.line || a.pos.column - b.pos.column);
    let mistake: IndentationMistake | undefined;
    for (const { e, pos } of errors) {
      mistake =
        e.code === 'TAB_AS_INDENT'
          ? tabIndent(lines, pos.line, yamlErrorMessage(e, parsed))
          : explainIndentation(lines, { code: e.code, message: e.message, line: pos.line, column: pos.column });
      if (mistake) break;
      out.push(diag(file, pos, yamlErrorMessage(e, parsed)));
    }
    // Reading again cannot help a mistake above the ones already reported.
    if (!mistake || mistake.line <= after) break;
    out.push(diag(file, mistake, mistake.message));
    after = mistake.line;
    // The line where it was meant: of the levels above, the one after which the text reads furthest.
    let best: { lines: string[]; parsed: ParsedFile; reach: number } | undefined;
    for (const indent of mistake.meant) {
      const moved = reindent(lines, mistake.line, indent, /^[ \t]+/);
      const again = parseText({ ...first.source, text: moved.join('\n') });
      const problems = [...again.doc.errors, ...again.doc.warnings];
      const reach = Math.min(Infinity, ...problems.map((e) => errorAt(again, e).line).filter((l) => l > mistake!.line));
      if (!best || reach > best.reach) best = { lines: moved, parsed: again, reach };
      if (reach === Infinity) break;
    }
    if (!best) break;
    ({ lines, parsed } = best);
  }
  // One mistake of another kind can still derail the parser for the rest of the file: the first few say it all.
  if (out.length <= MAX_SYNTAX_ERRORS) return out;
  const shown = out.slice(0, MAX_SYNTAX_ERRORS);
  shown.push(diag(file, out[MAX_SYNTAX_ERRORS]!, `${out.length - MAX_SYNTAX_ERRORS} more YAML syntax errors not shown`));
  return shown;
}

export function parseSource(source: SourceFile): { parsed?: ParsedFile; diagnostics: Diagnostic[] } {
  const parsed = parseText(source);
  const { doc } = parsed;
  const problems = [...doc.errors, ...doc.warnings];
  // The parser reports a stack overflow once per level it unwinds: once is enough.
  const overflow = problems.find((e) => /call stack/i.test(e.message));
  if (overflow) return { diagnostics: [diag(source.display, errorAt(parsed, overflow), TOO_DEEP)] };
  if (problems.length > 0) return { diagnostics: syntaxDiagnostics(parsed) };
  const deep = firstTooDeep(doc.contents);
  if (deep) return { diagnostics: [diag(source.display, parsed.locator.nodeStart(deep), TOO_DEEP)] };

  const contents = doc.contents;
  // Only comments, or only a document marker (an empty scalar), leave no content at all.
  const empty = isScalar(contents) && contents.value === null && contents.range?.[0] === contents.range?.[1];
  if (contents === null || empty) {
    return { diagnostics: [diag(source.display, { line: 1, column: 1 }, 'file has no content; a configuration file starts with "version: 1"')] };
  }
  if (!isMap(contents)) {
    const got = isSeq(contents) ? 'a list' : isAlias(contents) ? 'an alias' : 'a single value';
    return {
      diagnostics: [
        diag(
          source.display,
          parsed.locator.nodeStart(contents),
          `the top level must be a mapping with keys such as version, monitors and groups, not ${got}`,
        ),
      ],
    };
  }

  const structural: Diagnostic[] = [];
  const templated: Scalar[] = [];
  // One walk, in the order yaml's visit() takes (each pair, then its key, then its value), for the
  // key checks and the values interpolation will look at.
  const stack: { node: unknown; isKey: boolean }[] = [{ node: contents, isKey: false }];
  while (stack.length > 0) {
    const { node, isKey } = stack.pop()!;
    if (isScalar(node)) {
      if (!isKey && typeof node.value === 'string' && node.value.includes('${')) templated.push(node);
    } else if (isCollection(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) stack.push({ node: node.items[i], isKey: false });
    } else if (isPair(node)) {
      stack.push({ node: node.value, isKey: false }, { node: node.key, isKey: true });
      const key = node.key;
      const where = () => parsed.locator.nodeStart((key as Node | null) ?? (node.value as Node | null));
      if (isMergeKey(key)) continue;
      if (isCollection(key) || isAlias(key)) {
        structural.push(diag(source.display, where(), 'keys must be plain text, not lists, mappings or aliases'));
        continue;
      }
      const text = keyText(key);
      if (key === null || (isScalar(key) && key.value === null)) {
        structural.push(diag(source.display, where(), 'empty key: every mapping entry needs a key before the ":"'));
      } else if (text !== undefined && FORBIDDEN_KEYS.has(text)) {
        structural.push(
          diag(source.display, where(), `key ${JSON.stringify(text)} is not allowed (it is reserved by JavaScript objects)`),
        );
      }
    }
  }
  if (structural.length > 0) return { diagnostics: structural };
  parsed.templated = templated;
  return { parsed, diagnostics: [] };
}

/**
 * Plain data from the (already interpolated) document. The data's size, aliases expanded, is held
 * to MAX_EXPANDED_NODES first (aliases.ts: one walk, whatever the number of anchors and aliases),
 * so a "billion laughs" document is refused where it runs over, before any of it is built.
 * Dangling aliases and merge keys of something other than mappings are diagnostics.
 */
export function toPlainData(parsed: ParsedFile): { data?: Record<string, unknown>; diagnostics: Diagnostic[] } {
  const file = parsed.source.display;
  const index = parsed.locator.aliases();
  const expansion = measureExpansion(parsed.doc, index);
  if (!expansion.ok) {
    const where = parsed.locator.nodeStart(expansion.at);
    const message =
      expansion.reason === 'cycle'
        ? `alias *${(expansion.at as { source?: string }).source ?? ''} refers to a value that contains it: its data would never end`
        : index.targets.size > 0
          ? `aliases expand this file to over ${MAX_EXPANDED_NODES.toLocaleString('en-US')} values (the limit): refusing a possible "billion laughs" document; the limit was passed here`
          : `this file holds over ${MAX_EXPANDED_NODES.toLocaleString('en-US')} values (the limit); the limit was passed here: split it into several files`;
    return { diagnostics: [diag(file, where, message)] };
  }
  bindAliases(index);
  try {
    // The budget above replaces the library's count of alias uses per anchor (-1: off).
    const data = parsed.doc.toJS({ maxAliasCount: -1 }) as Record<string, unknown>;
    return { data, diagnostics: [] };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const merges: Node[] = [];
    visit(parsed.doc, {
      Pair(_k, pair) {
        if (isMergeKey(pair.key)) merges.push(pair.key as Node);
      },
    });
    const unresolved = /Unresolved alias[^:]*: (.*)$/.exec(message);
    if (unresolved) {
      const name = unresolved[1]!;
      const node = [...index.targets.keys()].find((a) => a.source === name && index.targets.get(a) === undefined);
      return {
        diagnostics: [diag(file, parsed.locator.nodeStart(node), `alias *${name} has no anchor &${name} defined before it`)],
      };
    }
    if (/Merge sources must be/.test(message)) {
      return {
        diagnostics: [
          diag(file, parsed.locator.nodeStart(merges[0]), 'a merge key (<<) must refer to a mapping or a list of mappings'),
        ],
      };
    }
    return { diagnostics: [diag(file, { line: 1, column: 1 }, `cannot read the YAML: ${message}`)] };
  }
}
