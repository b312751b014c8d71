import type { Command } from 'commander';
import { addAccountOptions, addConnectionOptions, addHelpFooter, collect, CONFIG_PATHS, CONNECTION_ENV } from './common.js';
import type { PlanOptions } from './plan-run.js';

export function register(program: Command): void {
  const cmd = program
    .command('plan')
    .description('show the API calls that would bring the account in line with the YAML (changes nothing)')
    .argument('[paths...]', CONFIG_PATHS)
    .option('--json', 'print the plan as JSON (same as --format json)')
    .option('--format <format>', 'text, json or markdown', 'text')
    .option('--out <file>', 'also save the plan for `monsync apply --plan FILE`')
    .option('--detailed-exitcode', 'exit 0 when there are no changes, 2 when there are, 1 on error')
    .option('--target <glob>', 'limit the plan to matching labels / group names (repeatable)', collect)
    .option('--prune', 'also delete unmanaged SMTP monitors and undeclared groups')
    .option('--strict', "fail on the checks' warnings too, not only their errors (for CI)")
    .option('--commit <sha>', 'the commit the Markdown comment names (default: MONSYNC_COMMIT, CI_COMMIT_SHA, GITHUB_SHA or git rev-parse HEAD)');
  addAccountOptions(cmd);
  addConnectionOptions(cmd);
  addHelpFooter(cmd, {
    about: ['A call to the service gives up after 60 s in all, retries included, or --timeout if longer (MONSYNC_DEADLINE=seconds).'],
    examples: [
      'monsync plan monitoring/                                       # what apply would do; sends nothing',
      'monsync plan monitoring/ --format markdown --detailed-exitcode  # in CI: a PR comment; exit 2 with changes',
      "monsync plan monitoring/ --target 'mx-eu-*' --out plan.json    # part of it, saved for apply --plan",
      'monsync plan --all-accounts --format markdown                  # every declared account, one comment',
    ],
    env: [...CONNECTION_ENV, '${VAR}', 'NO_COLOR', 'MONSYNC_COMMIT'],
  }).action(async (paths: string[], opts: PlanOptions, self: Command) => {
    const [{ runPlan }, { processIo }] = await Promise.all([import('./plan-run.js'), import('./output.js')]);
    process.exitCode = await runPlan(paths, opts, processIo(self));
  });
}
