import { UserError } from '../util/errors.js';
import { plural } from '../util/plural.js';

/**
 * The configuration cannot be planned against this account as it stands: the user must change the
 * configuration or the account. Every problem is collected before throwing, so one run lists them all.
 * A UserError, so main() prints the problems without a stack trace.
 */
export class PlanError extends UserError {
  readonly problems: string[];
  constructor(problems: string[]) {
    const n = problems.length;
    super(`cannot plan: ${plural(n, 'problem')} to fix first`, {
      exitCode: 1,
      details: problems.map((p) => `  - ${p}`),
    });
    this.problems = problems;
  }
}
