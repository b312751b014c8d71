/**
 * The command table. Each src/cli/<command>.ts exports `register(program)` that declares its
 * options and an action which dynamically imports what it needs.
 */
import type { Command } from 'commander';
import { register as registerEmulator } from './emulator.js';

export function registerCommands(program: Command): void {
  registerEmulator(program);
}
