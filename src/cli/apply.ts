import type { Command } from 'commander';
import type { ApplyOptions } from './apply-run.js';
import { addAccountOptions, addConnectionOptions, addHelpFooter, collect, CONFIG_PATHS, CONNECTION_ENV } from './common.js';

export function register(program: Command): void {
  const cmd = program
    .command('apply')
    .description('make the API calls that bring the account in line with the YAML, then plan again')
    .argument('[paths...]', CONFIG_PATHS)
    .option('--plan <file>', 'apply a plan saved by `monsync plan --out` (refused if the account changed since)')
    .option('--auto-approve', 'do not ask for confirmation (required when not on a terminal)')
    .option('--parallelism <n>', 'API calls in flight at once', '8')
    .option('--max-deletes <n>', 'refuse plans deleting more than this, per account (default: 10, or 30% of managed resources when larger)')
    .option('--force', 'apply even when the plan deletes more than --max-deletes')
    .option('--target <glob>', 'limit the plan to matching labels / group names (repeatable)', collect)
    .option('--prune', 'also delete unmanaged SMTP monitors and undeclared groups')
    .option('--strict', "fail on the checks' warnings too, not only their errors (for CI)")
    .option('--json', 'one JSON object per line on stdout (the plan, each change, the summary, the check); needs --auto-approve')

    .option('--verify', "then wait for each created or changed monitor's first round trip (up to timer + ttl + 60 s); exit 1 if one never completes");
  addAccountOptions(cmd);
  addConnectionOptions(cmd);
  addHelpFooter(cmd, {
    about: [
      'Each API call is sent at most 5 times (4 retries, one rule for all calls; a create is sent again only',
      'after reading the account showed it was not made) and gives up after 60 s in all, or --timeout if',
      'longer (MONSYNC_DEADLINE=seconds to change). Ctrl-C or SIGTERM: no new calls start, running ones',
      'finish, the summary is printed; exit 130 (Ctrl-C) or 143 (SIGTERM). Exit 1 when a change failed;',
      'exit 4 when all ran but the account still differs (a write the service did not keep).',
    ],
    examples: [
      'monsync apply monitoring/                          # shows the plan, asks for "yes", applies it',
      'monsync apply monitoring/ --auto-approve           # in CI (no terminal to ask on)',
      'monsync apply --plan plan.json --auto-approve      # exactly a plan saved by plan --out',
      'monsync apply monitoring/ --auto-approve --verify  # then wait for each new monitor\'s first round trip',
      'monsync apply --all-accounts --auto-approve        # each declared account in turn, staging first',
    ],
    env: [...CONNECTION_ENV, 'MONSYNC_VERIFY_POLL_MS', '${VAR}', 'NO_COLOR'],
  }).action(async (paths: string[], opts: ApplyOptions, self: Command) => {
    const [{ runApply }, { processIo }] = await Promise.all([import('./apply-run.js'), import('./output.js')]);
    process.exitCode = await runApply(paths, opts, processIo(self));
  });
}
