/**
 * What `monsync doctor` does, without printing: the checks of src/ops/doctor.ts, with the
 * configuration loaded and the account read by the command context (its one load and its one read,
 * so a contradicting first read that healed is reported among the checks).
 */
import type { DoctorReport } from '../ops/doctor.js';
import type { CommandContext } from './context.js';

export async function doctorFlow(ctx: CommandContext): Promise<DoctorReport> {
  const { runDoctor } = await import('../ops/doctor.js');
  return runDoctor({
    env: ctx.io.env,
    ...(ctx.account && { variablePrefix: ctx.account.envPrefix }),
    connection: { ...(ctx.connection.url !== undefined && { url: ctx.connection.url }), ...(ctx.connection.timeout !== undefined && { timeout: ctx.connection.timeout }) },
    paths: ctx.paths,
    cwd: ctx.io.cwd,
    now: ctx.io.now,
    readConfiguration: () => ctx.readConfiguration(),
    readAccount: async (client) => {
      let healed: string | null = null;
      const live = await ctx.readAccount(client, null, (p) => {
        if (p.kind === 'healed') healed = p.warning;
      });
      return { live, healed };
    },
  });
}
