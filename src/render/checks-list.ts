/**
 * `monsync checks` as text: one entry per check, its name, the severity it runs at, what it needs
 * (the configuration alone, or the account too) and its explanation wrapped under it. Pure.
 */
import pc from 'picocolors';

export interface CheckRow {
  name: string;
  /** The severity in force: the catalogue's default, or what settings.checks sets. */
  severity: 'error' | 'warning' | 'off';
  /** The catalogue's default. */
  default_severity: string;
  needs: string;
  explanation: string;
}

/** `monsync checks --json`. */
export function renderCheckListJson(rows: readonly CheckRow[]): string {
  return `${JSON.stringify({ checks: rows }, null, 2)}\n`;
}

const WIDTH = 100;

function wrap(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && indent.length + line.length + 1 + word.length > WIDTH) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines;
}

export function renderCheckList(rows: readonly CheckRow[], opts: { color?: boolean; configured?: boolean } = {}): string {
  const c = pc.createColors(opts.color ?? false);
  const paint = { error: c.red, warning: c.yellow, off: c.dim } as const;
  const nameWidth = Math.max(...rows.map((r) => r.name.length));
  const out = [
    `${rows.length} checks${opts.configured ? ', at the severities this configuration sets' : ''}. Set a severity (error, warning, off) with`,
    'settings.checks; silence a check on one monitor, alert or group with disable_checks.',
    '',
  ];
  for (const r of rows) {
    const severity = paint[r.severity](r.severity.padEnd(7));
    // The default is named only where a configuration changed it.
    const changed = r.severity !== r.default_severity ? ` (settings.checks; default ${r.default_severity})` : '';
    out.push(`${c.bold(r.name.padEnd(nameWidth))}  ${severity}  needs the ${r.needs}${changed}`);
    out.push(...wrap(r.explanation, '    '));
  }
  return `${out.join('\n')}\n`;
}
