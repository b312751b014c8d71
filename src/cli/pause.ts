/**
 * `monsync pause`, `resume` and `paused`: alerting on and off by label (API 4.6).
 */
import type { Command } from 'commander';
import { addAccountOptions, addConnectionOptions, addHelpFooter, collect, CONNECTION_ENV } from './common.js';
import type { PauseOptions, PausedOptions, ResumeOptions } from './pause-run.js';

export function register(program: Command): void {
  const pause = program
    .command('pause')
    .description('pause alerting for monitors or alerts, by label, for a while')
    .usage('--for <duration> (--monitor <label> | --alert <monitor:subject> | --all) [options]')
    .option('--monitor <label>', 'every alert of this monitor (repeatable)', collect)
    .option('--alert <monitor:subject>', "one alert: the monitor's label and the alert's trigger subject (repeatable)", collect)
    .option('--all', 'every alert of the account (slow on the real service beyond ~50 alerts)')
    .requiredOption('--for <duration>', '(required) how long: 90s, 30m, 2h, 1d, 1h30m; a bare number is seconds');
  addAccountOptions(pause);
  addConnectionOptions(pause);
  addHelpFooter(pause, {
    examples: ['monsync pause --monitor mx-eu-1 --for 30m', "monsync pause --alert 'mx-eu-1:mx-eu-1 is DOWN' --for 2h"],
    env: [...CONNECTION_ENV, 'NO_COLOR'],
  }).action(async (opts: PauseOptions, self: Command) => {
    const [{ runPause }, { processIo }] = await Promise.all([import('./pause-run.js'), import('./output.js')]);
    process.exitCode = await (await import('./accounts.js')).runPerAccount([], opts, processIo(self), (ctx) => runPause(opts, ctx.io, ctx));
  });

  const resume = program
    .command('resume')
    .description('end pauses now, by label')
    .option('--monitor <label>', 'every alert of this monitor (repeatable)', collect)
    .option('--alert <monitor:subject>', "one alert: the monitor's label and the alert's trigger subject (repeatable)", collect)
    .option('--all', 'every pause of the account (slow on the real service beyond ~50 alerts)');
  addAccountOptions(resume);
  addConnectionOptions(resume);
  addHelpFooter(resume, {
    examples: ['monsync resume --monitor mx-eu-1', 'monsync resume --all'],
    env: [...CONNECTION_ENV, 'NO_COLOR'],
  }).action(async (opts: ResumeOptions, self: Command) => {
    const [{ runResume }, { processIo }] = await Promise.all([import('./pause-run.js'), import('./output.js')]);
    process.exitCode = await (await import('./accounts.js')).runPerAccount([], opts, processIo(self), (ctx) => runResume(opts, ctx.io, ctx));
  });

  const paused = program
    .command('paused')
    .description('list paused alerts and when each resumes; given the configuration, which maintenance window each pause comes from')
    .argument('[paths...]', 'configuration files or directories: name the maintenance window of each pause')
    .option('--json', 'print JSON instead of the list');
  addAccountOptions(paused);
  addConnectionOptions(paused);
  addHelpFooter(paused, {
    examples: ['monsync paused              # each paused alert and when it resumes', 'monsync paused --json', 'monsync paused monitoring/  # and which maintenance window each comes from'],
    env: [...CONNECTION_ENV, 'NO_COLOR'],
  }).action(async (paths: string[], opts: PausedOptions, self: Command) => {
    const [{ runPaused }, { processIo }] = await Promise.all([import('./pause-run.js'), import('./output.js')]);
    process.exitCode = await (await import('./accounts.js')).runPerAccount(paths, opts, processIo(self), (ctx) => runPaused(opts, ctx.io, paths, ctx), []);
  });
}
