/**
 * Failures the user can act on, as values every layer may throw: main() (src/cli/main.ts) prints
 * `message` and `details` (never a stack, secrets redacted) and exits with `exitCode`. A leaf: it
 * imports nothing, so the planner, the loader or an operator module can refuse bad input without
 * depending on the command line.
 */
export class UserError extends Error {
  override readonly name = 'UserError';
  readonly exitCode: number;
  /** Extra lines printed after the message (diagnostics, lists of offending resources). */
  readonly details: string[];
  constructor(message: string, opts: { exitCode?: number; details?: string[] } = {}) {
    super(message);
    this.exitCode = opts.exitCode ?? 1;
    this.details = opts.details ?? [];
  }
}

/**
 * A mistake in what was typed: an option value, options that do not go together, a missing target.
 * Exit 2, as commander's own usage errors (an unknown option, a missing required one; 1 under
 * `plan --detailed-exitcode`, whose 2 means changes), and main() adds the same hint. Thrown before
 * anything is read or sent.
 */
export class UsageError extends UserError {
  constructor(message: string, opts: { details?: string[] } = {}) {
    super(message, { ...opts, exitCode: 2 });
  }
}

/** Thrown by a command that has already printed what it had to say and only needs an exit code. */
export class ExitCode extends Error {
  override readonly name = 'ExitCode';
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}
