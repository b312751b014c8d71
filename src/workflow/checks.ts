/**
 * What `monsync checks` does: the catalogue of checks (src/checks/catalogue.ts), each at its
 * default severity or, given a configuration, at the severity its `settings.checks` sets. Offline.
 * A broken configuration gives its problems (`file:line:column: ...` lines) instead.
 */
import type { CheckRow } from '../render/checks-list.js';
import type { CommandContext } from './context.js';

/** `configured`: the severities are the configuration's (paths were given). */
export async function checksFlow(ctx: CommandContext, opts: { configured: boolean }): Promise<{ checks: CheckRow[]; configured: boolean } | { problems: string[] }> {
  const { CHECKS, levelsOf, needsOf } = await import('../checks/index.js');
  let levels: Map<string, string> | undefined;
  if (opts.configured) {
    const read = await ctx.readConfiguration();
    if (!read.ok) return { problems: read.lines };
    levels = levelsOf(read.desired);
  }
  const checks = CHECKS.map((c) => ({
    name: c.name,
    severity: (levels?.get(c.name) ?? c.severity) as CheckRow['severity'],
    default_severity: c.severity,
    needs: needsOf(c),
    explanation: c.explanation,
  }));
  return { checks, configured: levels !== undefined };
}
