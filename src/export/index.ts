/**
 * `exportConfig`: the live account as monsync YAML, ready for `monsync validate` and `monsync plan`,
 * whose first plan only adopts the exported monitors. Pure: the caller reads the account and
 * writes the files.
 */
import { alertCount } from '../model/desired.js';
import type { LiveState } from '../model/live.js';
import { buildExport } from './build.js';
import { renderSingle, renderSplit, type ExportFile } from './render.js';

export { ExportError } from './build.js';
export { MAIN_FILE, UNGROUPED_FILE, type ExportFile } from './render.js';

export interface ExportOptions {
  /** Label / group-name globs: only matching monitors (and alerts on them) and groups are exported. */
  match?: string[];
  /** settings.owner of the exported config: the value of the managed-by marker. */
  owner: string;
  /** The `$schema` reference for the editor modeline, relative to the written file(s). */
  schemaPath: string;
  /** One file per group plus ungrouped.yaml, settings and defaults in monsync.yaml. */
  split?: boolean;
}

export interface ExportResult {
  files: ExportFile[];
  warnings: string[];
  counts: { monitors: number; alerts: number; groups: number };
}

export function exportConfig(live: LiveState, opts: ExportOptions): ExportResult {
  const model = buildExport(live, { match: opts.match, owner: opts.owner });
  const files = opts.split ? renderSplit(model, opts.schemaPath) : renderSingle(model, opts.schemaPath);
  return {
    files,
    warnings: model.warnings,
    counts: {
      monitors: model.monitors.length,
      alerts: alertCount(model),
      groups: model.groups.length,
    },
  };
}
