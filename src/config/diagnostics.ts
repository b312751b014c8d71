/**
 * Problems found in configuration files. Every stage of the loader reports bad input as a
 * Diagnostic instead of throwing, so one run can show the user everything that is wrong.
 */

import path from 'node:path';
import { pathText } from '../util/safe-text.js';

export type Severity = 'error' | 'warning';

export interface Diagnostic {
  /** Path of the file as shown to the user: as given (relative to the working directory, or absolute). */
  file: string;
  /** 1-based; 0 (with column 0) for the file as a whole: one that does not exist or cannot be read (WHOLE_FILE). */
  line: number;
  /** 1-based, counted in characters (UTF-16 code units); 0 with line 0. */
  column: number;
  message: string;
  /** Absent means 'error'. */
  severity?: Severity;
}

export interface Position {
  line: number;
  column: number;
}

/** No place in the file: it does not exist, is not a file, or could not be read. Shown as `file: message`. */
export const WHOLE_FILE: Position = { line: 0, column: 0 };

export function diag(file: string, pos: Position, message: string, severity?: Severity): Diagnostic {
  const d: Diagnostic = { file, line: pos.line, column: pos.column, message };
  if (severity) d.severity = severity;
  return d;
}

export function isError(d: Diagnostic): boolean {
  return d.severity !== 'warning';
}

/** By file, line, column; the original order breaks ties (Array.prototype.sort is stable). */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column,
  );
}

export function formatDiagnostic(d: Diagnostic): string {
  const prefix = d.severity === 'warning' ? 'warning: ' : '';
  const file = pathText(d.file);
  return d.line === 0 ? `${file}: ${prefix}${d.message}` : `${file}:${d.line}:${d.column}: ${prefix}${d.message}`;
}

/**
 * One line per diagnostic, sorted, in the `file:line:column: message` form editors and CI
 * annotate. File names are already as the user gave them; `cwd` makes absolute ones inside it relative.
 */
export function formatDiagnosticLines(diagnostics: readonly Diagnostic[], cwd?: string): string[] {
  return sortDiagnostics(diagnostics).map((d) =>
    formatDiagnostic(cwd && path.isAbsolute(d.file) ? { ...d, file: displayRelative(d.file, cwd) } : d),
  );
}

/** The same lines joined, each ending in a newline. */
export function formatDiagnostics(diagnostics: readonly Diagnostic[], cwd?: string): string {
  return formatDiagnosticLines(diagnostics, cwd)
    .map((l) => `${l}\n`)
    .join('');
}

/** Relative to `cwd` when inside it; a file elsewhere keeps its absolute path (`../../x` helps nobody). */
function displayRelative(file: string, cwd: string): string {
  const rel = path.relative(cwd, file);
  return rel === '' || path.isAbsolute(rel) || rel === '..' || rel.startsWith(`..${path.sep}`) ? file : rel;
}

/** Whitespace a terminal shows as a space, or not at all: escaped in messages, so "blank" can be seen. */
const INVISIBLE = /[\u00a0\u1680\u2000-\u200d\u2060\u2028\u2029\u202f\u205f\u3000\ufeff]/g;

/** Renders a user value inside a message: quoted, one line, and short. */
export function show(value: unknown): string {
  if (typeof value === 'string') {
    const oneLine = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return JSON.stringify(oneLine).replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return String(value);
}
