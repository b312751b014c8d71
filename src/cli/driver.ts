/**
 * The one driver of the commands. A command (src/cli/<command>.ts, one file) declares its options
 * and help with `command(program, spec)` and says what one run is: `each`, run on each account
 * chosen (a workflow of src/workflow/ on the command context, its result handed to the view), or
 * `run`, for a command that takes no account (validate, fmt, show, checks, emulator) or runs its
 * accounts together (plan, apply, exporter). The driver parses, makes the `CommandIo`, checks what
 * was typed before anything is read (`check`), opens the command context (the accounts chosen and
 * checked before any request: `openCommand`), runs the accounts through the one account loop
 * (`runAccounts`, src/workflow/run.ts: one heading, one exit-code fold) and sets the exit code.
 *
 * Registration loads nothing heavy: what a command runs is imported when it runs (`--help` stays fast).
 */
import type { Command } from 'commander';
import type { CommandContext, ConnectionOptions } from '../workflow/context.js';
import type { AccountChoice } from '../workflow/accounts.js';
import { addAccountOptions, addConnectionOptions, addHelpFooter, type HelpFooter } from './common.js';
import type { CommandIo } from './output.js';

export interface CommandInput<O> {
  /** The positional arguments, as typed (`[paths...]` flattened). */
  args: string[];
  opts: O;
  io: CommandIo;
}

export interface CommandSpec<O> {
  name: string;
  description: string;
  /** Positional arguments, as commander declares them: `['[paths...]', 'what they are']`. */
  args?: [string, string][];
  usage?: string;
  /** The command's own options. */
  options?: (cmd: Command) => void;
  /** Talks to the service: `--account`/`--all-accounts`, `--url`/`--timeout`. */
  service?: boolean;
  help: HelpFooter;
  /** Usage errors, before anything is read or any request is made. */
  check?: (input: CommandInput<O>) => void | Promise<void>;
  /**
   * One account's run (the command context of each account chosen, or the one context without
   * accounts). `paths` ([paths...] typed) is a configuration unless `declaredIn` says where the
   * accounts are declared (`[]`: monsync.yaml, for commands whose PATH is optional).
   */
  each?: (ctx: CommandContext, input: CommandInput<O>) => Promise<number>;
  declaredIn?: (input: CommandInput<O>) => string[] | undefined;
  /** The whole run, for a command without the per-account loop. */
  run?: (input: CommandInput<O>) => Promise<number>;
}

export function command<O extends object>(program: Command, spec: CommandSpec<O>): Command {
  const cmd = program.command(spec.name).description(spec.description);
  if (spec.usage !== undefined) cmd.usage(spec.usage);
  for (const [decl, text] of spec.args ?? []) cmd.argument(decl, text);
  spec.options?.(cmd);
  if (spec.service) {
    addAccountOptions(cmd);
    addConnectionOptions(cmd);
  }
  addHelpFooter(cmd, spec.help);
  cmd.action(async (...given: unknown[]) => {
    const self = given.at(-1) as Command;
    const opts = given.at(-2) as O;
    const args = given.slice(0, -2).flatMap((a) => (Array.isArray(a) ? (a as string[]) : a === undefined ? [] : [a as string]));
    const { processIo } = await import('./output.js');
    const input: CommandInput<O> = { args, opts, io: processIo(self) };
    await spec.check?.(input);
    process.exitCode = spec.run ? await spec.run(input) : await eachAccount(input, spec);
  });
  return cmd;
}

async function eachAccount<O extends object>(input: CommandInput<O>, spec: CommandSpec<O>): Promise<number> {
  const { openCommand } = await import('../workflow/context.js');
  const { runAccounts, accountHeading } = await import('../workflow/run.js');
  const opts = input.opts as O & ConnectionOptions & AccountChoice;
  const declaredIn = spec.declaredIn?.(input);
  const opened = await openCommand({ io: input.io, paths: input.args, connection: opts, choice: opts, ...(declaredIn !== undefined ? { declaredIn } : {}) });
  const { code } = await runAccounts(opened, (ctx) => spec.each!(ctx, { ...input, io: ctx.io }), { heading: (name) => input.io.out(accountHeading(name)), failure: (text) => input.io.err(text) });
  return code;
}
