import type { Command } from 'commander';
import { addAccountOptions, addConnectionOptions, addHelpFooter, CONNECTION_ENV } from './common.js';
import type { ExporterOptions } from './exporter-run.js';

export function register(program: Command): void {
  const cmd = program
    .command('exporter')
    .description('serve the account as Prometheus metrics (round trips, alerts, pauses, maintenance, drift), read once per --interval')
    .argument('[paths...]', 'configuration files (YAML or JSON) or directories of them (default: monsync.yaml when there is one, else none): also export the drift (what plan would change) and maintenance windows')
    // Literal, not the constant of exporter-run.ts: --help must not load the runner.
    .option('--listen <host:port>', 'address to serve /, /metrics, /-/healthy and /-/ready on (127.0.0.1:0 picks a free port)', '127.0.0.1:19816')
    .option('--interval <duration>', 'how often the account is read (90s, 5m, ...), whatever the scrape interval', '60s')
    .option('--token-file <file>', 'require `Authorization: Bearer <token>` on /metrics, the token read from this file (again on SIGHUP)')
    .option('--web.config.file <file>', "TLS and basic auth in exporter-toolkit's web configuration format, read again for every request");
  addAccountOptions(cmd);
  addConnectionOptions(cmd);
  addHelpFooter(cmd, {
    about: [
      'Prints `listening on http://HOST:PORT`, then runs until SIGTERM or Ctrl-C (exit 0); SIGHUP reads the',
      'files again and the account at once. A failed read keeps the last values with monsync_up 0 and is',
      'tried again later (docs/exporter.md).',
    ],
    examples: [
      'monsync exporter                              # 127.0.0.1:19816, and the drift of monsync.yaml if there is one',
      'monsync exporter monitoring/ --interval 2m    # the drift of monitoring/, the account read every 2 minutes',
      'monsync exporter --listen 0.0.0.0:19816 --web.config.file web.yml   # TLS and basic auth',
    ],
    env: [...CONNECTION_ENV],
  }).action(async (paths: string[], opts: ExporterOptions, self: Command) => {
    const [{ runExporter }, { processIo }] = await Promise.all([import('./exporter-run.js'), import('./output.js')]);
    process.exitCode = await runExporter(paths, opts, processIo(self));
  });
}
