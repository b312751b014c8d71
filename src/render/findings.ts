/** Findings of the checks (src/checks) as people read them: the `file:line:column: severity name: message` line, and counts. */
import type { Finding } from '../checks/types.js';
import { plural } from '../util/plural.js';
import { pathText } from '../util/safe-text.js';

/** `examples/x.yaml:12:5: warning alert/missing: monitor "mx-eu-2" has no alert; nobody is told when it fails` */
export function formatFinding(f: Finding): string {
  return `${pathText(f.file)}:${f.line}:${f.column}: ${f.severity} ${f.check}: ${f.message}`;
}

/** "1 error, 2 warnings"; "no findings" when empty. */
export function countFindings(findings: readonly Finding[]): string {
  const errors = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.length - errors;
  const parts: string[] = [];
  if (errors) parts.push(plural(errors, 'error'));
  if (warnings) parts.push(plural(warnings, 'warning'));
  return parts.length ? parts.join(', ') : 'no findings';
}
