/**
 * Writes the export model as monsync YAML: one file, or (split) `monsync.yaml` with settings and
 * defaults plus one file per group and `ungrouped.yaml`. Key order, item order and layout depend
 * only on the content, so exporting an unchanged account gives the same bytes.
 */
import { Document, isMap, isPair, isScalar, isSeq, Scalar, visit, type Node } from 'yaml';
import {
  ALERT_FACTORABLE,
  MONITOR_FACTORABLE,
  cmp,
  ownFields,
  type ExportModel,
  type ExportedAlert,
  type ExportedGroup,
  type ExportedMonitor,
  type Fields,
} from './build.js';
import { formatBuiltDocument } from '../config/format/format.js';
import { packageConfigShape } from '../config/format/shape.js';
import { alertCount } from '../model/desired.js';
import { plural } from '../util/plural.js';
import { escapeControl } from '../util/safe-text.js';

export interface ExportFile {
  name: string;
  content: string;
}

export const MAIN_FILE = 'monsync.yaml';
export const UNGROUPED_FILE = 'ungrouped.yaml';

const MONITORS_COMMENT = ' SMTP monitors managed here; apply adds the managed-by marker to those without it (adoption).';
const ALERTS_COMMENT = ' Alerts on monitors this config does not manage (other types, e.g. HTTP made in the web UI).';

/** A collection of scalars at most this long is written on one line. */
const FLOW_MAX = 72;

export function renderSingle(model: ExportModel, schemaPath: string): ExportFile[] {
  const body: Fields = { version: 1, ...head(model) };
  addSections(body, model.monitors, model.alerts, model.groups, model);
  return [{ name: MAIN_FILE, content: render(body, schemaPath, headerSingle(model)) }];
}

export function renderSplit(model: ExportModel, schemaPath: string): ExportFile[] {
  const main: Fields = { version: 1, ...head(model) };
  const files: ExportFile[] = [
    {
      name: MAIN_FILE,
      content: render(main, schemaPath, [
        ' Exported by `monsync export`. Settings and defaults for every file of this directory;',
        ' the monitors are in one file per group (a monitor in several groups: the first by name)',
        ` and ${UNGROUPED_FILE}. \`monsync plan <this directory>\` reads them all.`,
      ]),
    },
  ];

  // A monitor of several groups goes to the first by name; groups are already sorted by name.
  const home = new Map<string, string>();
  for (const g of model.groups) for (const id of g.memberIds) if (!home.has(id)) home.set(id, g.name);

  const names = fileNames(model.groups);
  for (const g of model.groups) {
    const body: Fields = { version: 1 };
    addSections(
      body,
      model.monitors.filter((m) => home.get(m.id) === g.name),
      model.alerts.filter((a) => home.get(a.monitorId) === g.name),
      [g],
      model,
    );
    files.push({ name: names.get(g.id)!, content: render(body, schemaPath, [` Group "${g.name}", exported by \`monsync export\` (settings and defaults: ${MAIN_FILE}).`]) });
  }
  const rest: Fields = { version: 1 };
  addSections(
    rest,
    model.monitors.filter((m) => !home.has(m.id)),
    model.alerts.filter((a) => !home.has(a.monitorId)),
    [],
    model,
  );
  files.push({
    name: UNGROUPED_FILE,
    content: render(rest, schemaPath, [` Monitors in no exported group, exported by \`monsync export\` (settings and defaults: ${MAIN_FILE}).`]),
  });
  return files;
}

function headerSingle(model: ExportModel): string[] {
  const alerts = alertCount(model);
  return [
    ` Exported by \`monsync export\`: ${plural(model.monitors.length, 'SMTP monitor')}, ${plural(alerts, 'alert')}, ${plural(model.groups.length, 'group')}.`,
  ];
}

function head(model: ExportModel): Fields {
  const out: Fields = { settings: { owner: model.owner } };
  const defaults: Fields = {};
  if (Object.keys(model.defaults.monitor).length > 0) defaults.monitor = model.defaults.monitor;
  if (Object.keys(model.defaults.alert).length > 0) defaults.alert = model.defaults.alert;
  if (Object.keys(defaults).length > 0) out.defaults = defaults;
  return out;
}

function addSections(body: Fields, monitors: ExportedMonitor[], alerts: ExportedAlert[], groups: ExportedGroup[], model: ExportModel): void {
  if (monitors.length > 0) body.monitors = monitors.map((m) => monitorEntry(m, model));
  if (alerts.length > 0) body.alerts = alerts.map((a) => alertEntry(a, model, true));
  if (groups.length > 0) body.groups = groups.map((g) => ({ name: g.name, monitors: g.members }));
}

function monitorEntry(m: ExportedMonitor, model: ExportModel): Fields {
  const out: Fields = { label: m.label, ip_address: m.ip_address, test_account: m.test_account };
  Object.assign(out, ownFields(m.values, MONITOR_FACTORABLE, 'monitor', model.defaults.monitor));
  if (Object.keys(m.meta).length > 0) out.meta = m.meta;
  if (m.alerts.length > 0) out.alerts = m.alerts.map((a) => alertEntry(a, model, false));
  return out;
}

function alertEntry(a: ExportedAlert, model: ExportModel, topLevel: boolean): Fields {
  const out: Fields = {};
  if (topLevel) out.monitor = a.monitorLabel;
  out.subject_init = a.values.subject_init;
  out.subject_term = a.values.subject_term;
  Object.assign(out, ownFields(a.values, ALERT_FACTORABLE, 'alert', model.defaults.alert));
  return out;
}

/** Per-group file names: a slug of the name, never clashing with each other or the fixed files. */
export function fileNames(groups: ExportedGroup[]): Map<string, string> {
  const taken = new Set([MAIN_FILE, UNGROUPED_FILE]);
  const out = new Map<string, string>();
  for (const g of [...groups].sort((x, y) => cmp(x.name, y.name) || cmp(x.id, y.id))) {
    const slug =
      g.name
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .replace(/[^a-z0-9_]+/g, '-')
        .replace(/^-+|-+$/g, '') || 'group';
    let name = `${slug}.yaml`;
    for (let i = 2; taken.has(name); i++) name = `${slug}-${i}.yaml`;
    taken.add(name);
    out.set(g.id, name);
  }
  return out;
}

function render(body: Fields, schemaPath: string, header: string[]): string {
  const doc = new Document(body);
  const root = doc.contents;
  if (isMap(root)) {
    for (const pair of root.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      const value = pair.value as Node | null;
      if (key !== 'version' && key !== 'settings' && isPair(pair) && isScalar(pair.key)) pair.key.spaceBefore = true;
      if (key === 'monitors' && isScalar(pair.key)) pair.key.commentBefore = MONITORS_COMMENT;
      if (key === 'alerts' && isScalar(pair.key)) pair.key.commentBefore = ALERTS_COMMENT;
      // A blank line between monitors: each is a block worth reading on its own.
      if (key === 'monitors' && isSeq(value)) value.items.forEach((item, i) => i > 0 && ((item as Node).spaceBefore = true));
    }
  }
  visit(doc, {
    Scalar(_key, node) {
      // Text that acts on a terminal is double-quoted, where escapeControl's \uXXXX below is YAML's own
      // escape: the file reads back as the same data and is safe to print. (fmt keeps the quotes of
      // text over lines or with tabs; other text it writes plain where YAML allows, quoted where not.)
      if (typeof node.value === 'string' && escapeControl(node.value) !== node.value) node.type = Scalar.QUOTE_DOUBLE;
    },
    Seq(_key, node) {
      if (node.items.every(isScalar) && flowLength(node.items.map((s) => (s as Scalar).value)) <= FLOW_MAX) node.flow = true;
    },
    Map(_key, node) {
      if (node === root) return;
      const scalars = node.items.every((p) => isScalar(p.value));
      if (scalars && node.items.length <= 4 && flowLength(node.items.map((p) => [(p.key as Scalar).value, (p.value as Scalar).value])) <= FLOW_MAX) {
        node.flow = true;
      }
    },
  });
  const comments = [` yaml-language-server: $schema=${schemaPath}`, ...header];
  // Escaped after fmt's rewrite (which writes what it decoded): such strings stay double-quoted, where \uXXXX is YAML's own.
  return escapeControl(inFmtStyle(doc, comments.join('\n')));
}

/**
 * The document as `monsync fmt` writes it: fmt is the one writer of the files' style (key order,
 * quotes, flow spacing), so an exported directory passes `fmt --check` as it is written. Export
 * chooses only what fmt keeps as written: flow or block, blank lines, comments. fmt lays out the
 * document built here directly (no text printed and parsed again, no read-back check: see
 * formatBuiltDocument); test/export/fmt-equality.test.ts holds the result equal to fmt's rewrite.
 */
function inFmtStyle(doc: Document, header: string): string {
  try {
    return formatBuiltDocument(doc, { shape: packageConfigShape(), header });
  } catch (err) {
    throw new Error(`export built YAML that fmt cannot write: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function flowLength(values: unknown[]): number {
  return JSON.stringify(values).length;
}
