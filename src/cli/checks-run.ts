/** The runner of `monsync checks`: the catalogue, at a configuration's severities when paths are given. */
import type { CommandIo } from './output.js';

export async function runChecksList(paths: string[], opts: { json?: boolean }, io: CommandIo): Promise<number> {
  const { CHECKS, levelsOf, needsOf } = await import('../checks/index.js');
  let levels: Map<string, string> | undefined;
  if (paths.length > 0) {
    const { commandContext } = await import('../workflow/context.js');
    const result = await commandContext(io, paths).readConfiguration();
    if (!result.ok) {
      for (const line of result.lines) io.err(`${line}\n`);
      return 1;
    }
    levels = levelsOf(result.desired);
  }
  const list = CHECKS.map((c) => ({
    name: c.name,
    severity: (levels?.get(c.name) ?? c.severity) as 'error' | 'warning' | 'off',
    default_severity: c.severity,
    needs: needsOf(c),
    explanation: c.explanation,
  }));
  if (opts.json) {
    io.out(`${JSON.stringify({ checks: list }, null, 2)}\n`);
    return 0;
  }
  const { renderCheckList } = await import('../render/checks-list.js');
  const rows = list.map(({ default_severity, ...r }) => (r.severity === default_severity ? r : { ...r, default: default_severity }));
  io.out(renderCheckList(rows, { color: io.color, configured: levels !== undefined }));
  return 0;
}
