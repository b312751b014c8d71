/**
 * `monsync fmt`'s rewrite of one configuration file: text in, the same file in the canonical
 * layout out, or diagnostics. Pure: no file system, no environment.
 *
 * Canonical means: keys in the schema's order (required keys such as `label` first, then merge
 * keys and `x-` keys, then the other fields in the schema's order, unknown keys last), two-space
 * indentation with list items indented under their key, plain scalars wherever YAML allows them,
 * quotes where a YAML 1.1 reader would see another type (`"on"`, `"yes"`, `"007"`, `"1e3"`: the
 * loader reads YAML 1.2, editors and older tools often 1.1), `true` / `false` / `null`.
 *
 * Kept as written: every comment, and a blank line between items (several become one: a canonical
 * layout, and one blank line separates as well as three; a comment above or beside an item
 * travels with it; one below the last item of a level stays there; the comment block at the top of
 * the file, modeline included, stays at the top), anchors, aliases and merge keys, flow (`[a, b]`)
 * or block style of each collection (but a flow collection with comments inside becomes block),
 * block scalars, multi-line and tab-holding quoted text, double-quoted text holding characters that
 * act on a terminal (`escapeControl`), the order of list items and of `meta` keys, a byte-order mark
 * (the CLI's part) and CRLF line ends.
 *
 * The result is checked before it is returned: it must parse, hold exactly the data of the input
 * and every one of its comments. Anything the layout cannot express is refused, never guessed.
 */
import { isDeepStrictEqual } from 'node:util';
import { Lexer, Schema, isCollection, isMap, isPair, isScalar, visit, type Document, type Node, type Pair, type Scalar, type ToStringOptions, type YAMLMap, type YAMLSeq } from 'yaml';
import { escapeControl } from '../../util/safe-text.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { parseSource, toPlainData } from '../parse.js';
import { resolveAliases, sortByShape } from './order.js';
import type { Shape } from './shape.js';

export interface FormatOptions {
  /** The key order: `readConfigShape()` of the package's schema. */
  shape: Shape;
  /** The file's name in diagnostics. */
  file?: string;
}

export type FormatResult = { ok: true; text: string } | { ok: false; diagnostics: Diagnostic[] };

/** The layout options handed to the `yaml` library's printer. */
export const LAYOUT: ToStringOptions = {
  indent: 2,
  indentSeq: true,
  // Long lines stay as they are: folding a plain or quoted scalar over lines is legal but hard to read.
  lineWidth: 0,
  // `[ops-mail]`; flow mappings get their inner spaces from `padFlowMaps`.
  flowCollectionPadding: false,
  trueStr: 'true',
  falseStr: 'false',
  nullStr: 'null',
};

/** Scalars a YAML 1.1 reader resolves to something other than text: such strings stay quoted. */
const YAML_11_TAGS = new Schema({ schema: 'yaml-1.1' }).tags;
const MERGE_TAG = 'tag:yaml.org,2002:merge';

export function formatConfigText(text: string, options: FormatOptions): FormatResult {
  const file = options.file ?? 'input';
  const fail = (message: string): FormatResult => ({ ok: false, diagnostics: [diag(file, { line: 1, column: 1 }, message)] });
  const { parsed, diagnostics } = parseSource({ path: file, display: file, text });
  if (!parsed) return { ok: false, diagnostics };
  const before = toPlainData(parsed);
  if (!before.data) return { ok: false, diagnostics: before.diagnostics };
  const doc = parsed.doc;

  // Where the parser put comments and blank lines, from the source text; then the layout itself.
  const header = takeHeader(doc, text);
  keepFooterInPlace(doc, text);
  placeTrailingComments(doc, text);
  keepKeyLineComments(doc, text);
  let out: string;
  try {
    out = printCanonical(doc, options.shape, header);
  } catch (err) {
    return fail(`cannot be formatted: ${err instanceof Error ? err.message : String(err)}; the file was left as it is`);
  }
  if (/\r\n/.test(text.slice(0, text.indexOf('\n') + 1))) out = out.replace(/\n/g, '\r\n');

  // Already formatted (what CI checks most of the time): the same text holds the same data and comments.
  if (out === text) return { ok: true, text };
  const problem = lossOf(text, before.data, out, file);
  if (problem) return fail(`formatting would ${problem}, so the file was left as it is (please report this as a bug)`);
  return { ok: true, text: out };
}

/**
 * fmt's layout of a document a program built itself (export), without a text to parse or to check
 * against: the same steps and printer as `formatConfigText` but the ones that repair where the
 * parser attached comments (a built document's comments sit on the nodes its builder put them on).
 * `header` (the file's opening comment lines, `#` removed) goes above the first key, where
 * formatConfigText puts a file's opening comment block.
 *
 * No read-back check: that check guards a person's file (comments moved by their written column,
 * anchors and aliases, source forms of scalars) against a rewrite that loses any of it. A built
 * document holds none of that, and the printer writes a scalar plain only when it reads back as the
 * same value under the document's schema and YAML 1.1 (`schema.compat`). The caller's tests read
 * its output back (export: test/export/roundtrip.test.ts) and hold it equal to formatConfigText's
 * rewrite of itself (test/export/fmt-equality.test.ts). May throw on a node the printer cannot write.
 */
export function formatBuiltDocument(doc: Document, options: { shape: Shape; header?: string }): string {
  return printCanonical(doc, options.shape, options.header);
}

/** The steps of the layout that depend on the document alone, and the printer: one writer of the style. */
function printCanonical(doc: Document, shape: Shape, header: string | undefined): string {
  blockWhereCommented(doc);
  blankLinesBetweenItemsOnly(doc);
  plainScalars(doc);
  sortByShape(doc.contents, shape, resolveAliases(doc), new Set());
  commentsAboveListItems(doc);
  if (header) putHeader(doc, header);
  padFlowMaps(doc);

  doc.schema = doc.schema.clone();
  // The library prints any "<<" as a merge key, a quoted "<<" key (text) included: only merge keys
  // (symbols once parsed) may take that way.
  doc.schema.tags = doc.schema.tags.map((t) =>
    t.tag === MERGE_TAG ? { ...t, identify: (v: unknown) => typeof v === 'symbol' && v.description === '<<' } : t,
  );
  doc.schema.compat = YAML_11_TAGS;
  return doc.toString(LAYOUT);
}

/**
 * `{ owner: monsync }` but `[ops-mail]`, as prettier (bracketSpacing) and the README write them.
 * The printer has one padding option for both kinds of flow collection; each mapping prints with
 * the padding on, and hands its items the setting it was given.
 */
function padFlowMaps(doc: Document): void {
  visit(doc, {
    Map(_key, node) {
      const print = node.toString.bind(node);
      node.toString = (ctx, ...rest) => print(ctx && { ...ctx, flowCollectionPadding: ' ' }, ...rest);
    },
    Seq(_key, node) {
      const print = node.toString.bind(node);
      node.toString = (ctx, ...rest) => print(ctx && { ...ctx, flowCollectionPadding: '' }, ...rest);
    },
  });
}

/**
 * The comment block the file starts with (modeline, description). The parser hands it to the first
 * key when no blank line follows it; taken off here, it goes back on whichever key comes first
 * after sorting.
 */
function takeHeader(doc: Document, text: string): string | undefined {
  const top = doc.contents;
  if (doc.commentBefore || !isMap(top) || top.flow) return undefined;
  const first = top.items[0] as Pair | undefined;
  const key = first?.key as Node | undefined;
  const start = key?.range?.[0];
  if (!key || start === undefined || !/^(?:[ \t]*(?:#[^\n]*)?\r?\n)*$/.test(text.slice(0, start).replace(/[ \t]*$/, ''))) {
    return undefined;
  }
  const parts = [top.commentBefore, key.commentBefore].filter((c): c is string => Boolean(c));
  top.commentBefore = undefined;
  key.commentBefore = undefined;
  return parts.length > 0 ? parts.join('\n') : undefined;
}

/**
 * The comment block the file ends with. The printer always puts a blank line before a document's
 * closing comment; written right under the last item, it stays there as the top mapping's own.
 */
function keepFooterInPlace(doc: Document, text: string): void {
  const top = doc.contents;
  if (!doc.comment || !isMap(top) || top.flow || top.comment || !top.range) return;
  const valueEnd = top.range[1];
  const from = columnOf(text, valueEnd) === 0 ? valueEnd : text.indexOf('\n', valueEnd) + 1;
  if (from <= 0 || !/^[ \t]*#/.test(text.slice(from))) return;
  top.comment = doc.comment;
  doc.comment = null;
}

function putHeader(doc: Document, header: string): void {
  const top = doc.contents;
  const key = isMap(top) ? ((top.items[0] as Pair | undefined)?.key as Node | undefined) : undefined;
  if (key && (isScalar(key) || isCollection(key))) {
    key.commentBefore = key.commentBefore ? `${header}\n${key.commentBefore}` : header;
    key.spaceBefore = undefined;
  } else doc.commentBefore = header;
}

/**
 * Comments the parser attaches to a block collection although they were written elsewhere, moved
 * to the node they belong to before keys are reordered:
 * - `monitors:   # note` is the first line of the list's leading comment; it goes back on the key's line;
 * - a comment above the first key of a mapping that is a key's value belongs to that first key.
 */
function keepKeyLineComments(doc: Document, text: string): void {
  visit(doc, {
    Pair(_key, pair) {
      const value = pair.value;
      const key = pair.key;
      if (!isCollection(value) || value.flow || !value.commentBefore || !isScalar(key) || !key.range) return;
      const lineEnd = text.indexOf('\n', key.range[1]);
      const rest = text.slice(key.range[1], lineEnd < 0 ? text.length : lineEnd);
      if (!value.anchor && !value.tag && /^[ \t]*:[ \t]*#/.test(rest) && !key.comment) {
        const [first, ...others] = value.commentBefore.split('\n');
        key.comment = first;
        value.commentBefore = others.length > 0 ? others.join('\n') : undefined;
      }
      const firstKey = isMap(value) ? ((value.items[0] as Pair | undefined)?.key as Node | undefined) : undefined;
      if (value.commentBefore && firstKey && (isScalar(firstKey) || isCollection(firstKey))) {
        firstKey.commentBefore = firstKey.commentBefore ? `${value.commentBefore}\n${firstKey.commentBefore}` : value.commentBefore;
        value.commentBefore = undefined;
      }
    },
  });
}

/** 0-based column of an offset. */
const columnOf = (text: string, offset: number): number => offset - (text.lastIndexOf('\n', offset - 1) + 1);

/**
 * Comments below the last item of a nested collection, but written further left, belong to an
 * outer level: under the outer collection, or above its next item. The parser gives all of them to
 * the innermost collection, which would print them indented under it; each goes back to the level
 * its column says.
 */
function placeTrailingComments(doc: Document, text: string): void {
  visit(doc, {
    Collection(_key, node, path) {
      if (node.flow || !node.comment || !node.range) return;
      const [, valueEnd, end] = node.range;
      const found: { column: number; text: string }[] = [];
      // From the line after the last value (a value may end mid-line, before its own comment).
      const from = columnOf(text, valueEnd) === 0 ? valueEnd : text.indexOf('\n', valueEnd) + 1;
      for (const line of from <= 0 ? [] : text.slice(from, end).split('\n')) {
        const m = /^([ \t]*)#(.*?)\r?$/.exec(line);
        if (m) found.push({ column: m[1]!.length, text: m[2]!.trimEnd() });
      }
      const lines = node.comment.split('\n');
      const written = lines.filter((l) => l !== '');
      if (found.length !== written.length || found.some((f, i) => f.text !== written[i]!.trimEnd())) return;

      // The collections above this one, innermost first, each with its item that holds this one.
      const outer: { at: YAMLMap | YAMLSeq; item: unknown }[] = [];
      for (let i = path.length - 1; i >= 0; i--) {
        const p = path[i];
        if (isCollection(p)) {
          if (p.flow || !p.range) return;
          outer.push({ at: p as YAMLMap | YAMLSeq, item: path[i + 1] ?? node });
        }
      }
      const own = columnOf(text, node.range[0]);
      let k = 0;
      const destinationOf = (column: number): number => {
        if (column >= own) return -1;
        let d = 0;
        while (d < outer.length - 1 && column < columnOf(text, outer[d]!.at.range![0])) d++;
        return d;
      };
      const dest = lines.map((l) => (l === '' ? undefined : destinationOf(found[k++]!.column)));
      // Blank lines go with the comment line before them (or, at the start, the one after).
      let last = dest.find((d) => d !== undefined) ?? -1;
      const groups = new Map<number, string[]>();
      lines.forEach((l, i) => {
        const d = dest[i] ?? last;
        last = d;
        groups.set(d, [...(groups.get(d) ?? []), l]);
      });
      if (groups.size === 1 && groups.has(-1)) return;
      node.comment = groups.get(-1)?.join('\n') || undefined;
      for (const [d, group] of groups) {
        if (d < 0) continue;
        const { at, item } = outer[d]!;
        const items = at.items as unknown[];
        const next = items[items.indexOf(item) + 1];
        const target = next === undefined ? at : isPair(next) ? next.key : next;
        const moved = group.join('\n');
        if (next === undefined) at.comment = at.comment ? `${moved}\n${at.comment}` : moved;
        else if (isScalar(target) || isCollection(target)) {
          target.commentBefore = target.commentBefore ? `${moved}\n${target.commentBefore}` : moved;
        } else node.comment = node.comment ? `${node.comment}\n${moved}` : moved;
      }
    },
  });
}

/**
 * A `[...]` or `{...}` collection with comments among its items is written in block style: the
 * printer cannot keep comments inside a flow collection in one stable place (formatting twice
 * would move them), and in block style each comment sits on its item's line or above it.
 */
function blockWhereCommented(doc: Document): void {
  const commented = (node: unknown): boolean => {
    if (isPair(node)) {
      // Both sides are walked: the value may hold a flow collection to convert whatever the key holds.
      const key = commented(node.key);
      return commented(node.value) || key;
    }
    if (!isScalar(node) && !isCollection(node)) return false;
    let inside = false;
    if (isCollection(node)) for (const item of node.items) inside = commented(item) || inside;
    if (isCollection(node) && node.flow && inside && node.items.length > 0) node.flow = false;
    return inside || Boolean(node.commentBefore || node.comment);
  };
  commented(doc.contents);
}

/**
 * Blank lines are kept between items only: one right under `key:` (before a nested collection or
 * its first item) separates nothing, and the printer writes it in a form it does not read back the
 * same (after an anchor it even moves the anchor to a line of its own).
 */
function blankLinesBetweenItemsOnly(doc: Document): void {
  visit(doc, {
    Collection(_key, node) {
      if (node === doc.contents) return;
      const first = node.items[0];
      const target = isPair(first) ? first.key : first;
      if (isScalar(target) || isCollection(target)) target.spaceBefore = undefined;
    },
    Pair(_key, pair) {
      if (isCollection(pair.value)) pair.value.spaceBefore = undefined;
    },
  });
}

/**
 * A comment above a key that sorting made the first of a list item would print on the item's `-`
 * line, where the parser reads it back as the item's own: it goes above the `-` now, so a second
 * run has nothing to move.
 */
function commentsAboveListItems(doc: Document): void {
  visit(doc, {
    Seq(_key, seq) {
      if (seq.flow) return;
      for (const item of seq.items) {
        if (!isMap(item) || item.flow) continue;
        const key = (item.items[0] as Pair | undefined)?.key;
        if (!(isScalar(key) || isCollection(key)) || !key.commentBefore) continue;
        item.commentBefore = item.commentBefore ? `${item.commentBefore}\n${key.commentBefore}` : key.commentBefore;
        key.commentBefore = undefined;
      }
    },
  });
}

const BLOCK = new Set<string | undefined>(['BLOCK_LITERAL', 'BLOCK_FOLDED']);

/** Single-line strings print plain unless YAML needs quotes; booleans and nulls in their lower-case word. */
function plainScalars(doc: Document): void {
  visit(doc, {
    Scalar(_key, node: Scalar) {
      const v = node.value;
      if (typeof v === 'string') {
        // A quoted "<<" key is text; plain, it would become a merge key.
        if (v === '<<' && node.type !== 'PLAIN' && node.type !== undefined) return;
        // Multi-line text keeps its block or quoted form: a plain scalar over lines is hard to read.
        // So does text with a tab, which reads as spaces when it is not written as "\t".
        if (/[\n\t]/.test(v) || BLOCK.has(node.type)) return;
        // Double-quoted text with characters that act on a terminal or on text direction stays so:
        // invisible in a plain scalar, and export writes them as `\uXXXX`, which only double quotes unescape.
        if (node.type === 'QUOTE_DOUBLE' && escapeControl(v) !== v) return;
        node.type = 'PLAIN';
      } else if (typeof v === 'boolean' || (v === null && node.source)) {
        // `True`, `~`, `NULL`: the printer keeps the source text unless it is dropped.
        node.source = undefined;
      }
    },
  });
}

/** Comment lines of a YAML text, as written (the lexer sees comments as tokens of their own). */
export function commentsOf(text: string): string[] {
  const out: string[] = [];
  for (const token of new Lexer().lex(text)) if (token.startsWith('#')) out.push(token.trimEnd());
  return out.sort();
}

/** What the formatted text lost or changed compared with the input, or undefined when nothing. */
function lossOf(text: string, data: unknown, out: string, file: string): string | undefined {
  const again = parseSource({ path: file, display: file, text: out });
  if (!again.parsed) return `produce invalid YAML (${again.diagnostics[0]?.message ?? 'unknown problem'})`;
  const after = toPlainData(again.parsed);
  if (!after.data || !isDeepStrictEqual(after.data, data)) return 'change the data the file holds';
  const kept = commentsOf(out);
  const lost = commentsOf(text).find((c) => {
    const at = kept.indexOf(c);
    if (at >= 0) kept.splice(at, 1);
    return at < 0;
  });
  if (lost !== undefined) return `lose or change the comment ${JSON.stringify(lost)}`;
  if (kept.length > 0) return `add the comment ${JSON.stringify(kept[0])}`;
  return undefined;
}
