/**
 * The command table. Each src/cli/<command>.ts exports `register(program)` that declares its
 * options and an action which dynamically imports what it needs.
 */
import type { Command } from 'commander';
import { register as registerApply } from './apply.js';
import { register as registerChecks } from './checks.js';
import { register as registerData } from './data.js';
import { register as registerDoctor } from './doctor.js';
import { register as registerDrill } from './drill.js';
import { register as registerEmulator } from './emulator.js';
import { register as registerExport } from './export.js';
import { register as registerExporter } from './exporter.js';
import { register as registerFmt } from './fmt.js';
import { register as registerMaintain } from './maintain.js';
import { register as registerPause } from './pause.js';
import { register as registerPlan } from './plan.js';
import { register as registerReport } from './report.js';
import { register as registerShow } from './show.js';
import { register as registerStatus } from './status.js';
import { register as registerTest } from './test.js';
import { register as registerValidate } from './validate.js';
import { showDefaultsAsTyped } from './common.js';

export function registerCommands(program: Command): void {
  registerValidate(program);
  registerChecks(program);
  registerFmt(program);
  registerPlan(program);
  registerShow(program);
  registerTest(program);
  registerApply(program);
  registerExport(program);
  registerStatus(program);
  registerPause(program);
  registerMaintain(program);
  registerData(program);
  registerReport(program);
  registerDrill(program);
  registerDoctor(program);
  registerExporter(program);
  registerEmulator(program);
  showDefaultsAsTyped(program);
}
