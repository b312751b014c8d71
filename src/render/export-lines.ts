/**
 * What `monsync export` says on stderr (stdout carries only the YAML when it goes there): its
 * warnings, where the files went and what to run next, and an interruption. Pure.
 */
import { plural } from '../util/plural.js';

export interface ExportedLine {
  counts: { monitors: number; alerts: number; groups: number };
  target: { kind: 'stdout' | 'file' | 'dir' };
  shown: string;
  files: number;
}

/** `Exported 3 SMTP monitors, 2 alerts, 1 group to monitoring/. Next: ...`, with its newline. */
export function renderExported(d: ExportedLine, mainFile: string): string {
  const what = `${plural(d.counts.monitors, 'SMTP monitor')}, ${plural(d.counts.alerts, 'alert')}, ${plural(d.counts.groups, 'group')}`;
  if (d.target.kind === 'stdout') return `Exported ${what}.\n`;
  if (d.target.kind === 'file') return `Exported ${what} to ${d.shown}. Next: monsync plan ${d.shown}\n`;
  return `Exported ${what} to ${plural(d.files, 'file')} in ${d.shown} (${mainFile} holds settings and defaults). Next: monsync plan ${d.shown}\n`;
}

export function renderExportWarning(warning: string): string {
  return `Warning: ${warning}\n`;
}

export function renderStrayFile(file: string, dir: string): string {
  return `Warning: ${file} was not written by this export; \`monsync plan ${dir}\` reads it too\n`;
}

export function renderExportInterrupted(e: { signal: string; target: string | null; removed: string | null; whole: boolean }): string {
  if (e.whole) return `\nInterrupted by ${e.signal} once the files were in place: ${e.target} was written whole.\n`;
  const removed = e.removed === null ? '' : ` (removed the temporary ${e.removed})`;
  return `\nInterrupted by ${e.signal}: export stopped${e.target === null ? '' : `; ${e.target} is as it was`}${removed}.\n`;
}
