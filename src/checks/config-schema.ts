/**
 * The repeated parts of schemas/monsync.schema.json, made from the field tables (model/fields.ts)
 * and the check catalogue: the monitor properties (in `defaults.monitor` and `monitors[]`), the alert
 * properties (in `defaults.alert`, `monitors[].alerts[]` and `alerts[]`), the `slo` objective (with the
 * monitor properties, and in `groups[]`) and the check names (in
 * `settings.checks` and the four `disable_checks`). The rest of the file (top level, settings,
 * labels, previous names, groups) is written by hand and passed through as it is.
 *
 * test/config/schema-generated.test.ts fails when the committed schema differs from
 * `renderConfigSchema(committed)`; `npx vitest run test/config/schema-generated.test.ts -u` rewrites
 * it (then `npm run build` regenerates the validators, `node scripts/config-reference.mjs --write`
 * README's reference). Pure.
 */
import {
  ALERT_FIELD_TABLE,
  MONITOR_FIELD_TABLE,
  MONITOR_META_SCHEMA,
  SLO_FIELD,
  SMTP_TYPE_SCHEMA,
  UP_DOWN_TYPE_SCHEMA,
} from '../model/fields.js';
import { CHECKS } from './catalogue.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

const LEVELS = ['error', 'warning', 'off'];

function obj(v: Json | undefined, where: string): JsonObject {
  if (v === null || v === undefined || typeof v !== 'object' || Array.isArray(v)) {
    throw new Error(`schemas/monsync.schema.json: ${where} is not an object`);
  }
  return v;
}

/** A plain JSON copy (drops readonly, and `as const` tuples become arrays). */
function json(v: unknown): Json {
  return JSON.parse(JSON.stringify(v)) as Json;
}

/** The properties every monitor field table row gives, with `type` first and `meta` last. */
function monitorProperties(): JsonObject {
  const out: JsonObject = { type: json(SMTP_TYPE_SCHEMA) };
  for (const row of MONITOR_FIELD_TABLE) out[row.field] = json(row.schema);
  out.meta = json(MONITOR_META_SCHEMA);
  out[SLO_FIELD.field] = json(SLO_FIELD.schema);
  return out;
}

function alertSubjects(): JsonObject {
  const out: JsonObject = {};
  for (const row of ALERT_FIELD_TABLE) if (!row.body) out[row.field] = json(row.schema);
  return out;
}

function alertBody(): JsonObject {
  const out: JsonObject = { type: json(UP_DOWN_TYPE_SCHEMA) };
  for (const row of ALERT_FIELD_TABLE) if (row.body) out[row.field] = json(row.schema);
  return out;
}

/** `disable_checks`, keeping the hand-written description of the place. */
function disableChecks(old: Json | undefined, where: string): JsonObject {
  return {
    type: 'array',
    description: obj(old, where).description ?? null,
    items: { type: 'string', enum: CHECKS.map((c) => c.name), description: 'The name of a check, such as `alert/missing`.' },
    uniqueItems: true,
  };
}

function checkLevels(): JsonObject {
  const out: JsonObject = {};
  for (const c of CHECKS) {
    out[c.name] = { type: 'string', enum: LEVELS, description: `${c.explanation} Default \`${c.severity}\`.` };
  }
  return out;
}

/** Replaces `properties` of a node, keeping the node's other keys in place. */
function withProperties(node: JsonObject, properties: JsonObject): JsonObject {
  return { ...node, properties };
}

/** The schema with its repeated parts made again from the tables and the catalogue. */
export function renderConfigSchema(committed: unknown): JsonObject {
  const schema = obj(json(committed), 'the schema');
  const top = obj(schema.properties, 'properties');

  const settings = obj(top.settings, 'settings');
  const settingsProps = obj(settings.properties, 'settings.properties');
  const checks = obj(settingsProps.checks, 'settings.checks');

  const defaults = obj(top.defaults, 'defaults');
  const defaultsProps = obj(defaults.properties, 'defaults.properties');

  const monitors = obj(top.monitors, 'monitors');
  const monitorItem = obj(monitors.items, 'monitors.items');
  const monitorProps = obj(monitorItem.properties, 'monitors.items.properties');
  const nested = obj(monitorProps.alerts, 'monitors.items.alerts');
  const nestedItem = obj(nested.items, 'monitors.items.alerts.items');
  const nestedProps = obj(nestedItem.properties, 'monitors.items.alerts.items.properties');

  const alerts = obj(top.alerts, 'alerts');
  const alertItem = obj(alerts.items, 'alerts.items');
  const alertProps = obj(alertItem.properties, 'alerts.items.properties');

  const groups = obj(top.groups, 'groups');
  const groupItem = obj(groups.items, 'groups.items');
  const groupProps = obj(groupItem.properties, 'groups.items.properties');

  const alertItemProps = (before: JsonObject, old: JsonObject, where: string): JsonObject => ({
    ...before,
    ...alertSubjects(),
    previous_subjects: old.previous_subjects ?? null,
    ...alertBody(),
    disable_checks: disableChecks(old.disable_checks, `${where}.disable_checks`),
  });

  return {
    ...schema,
    properties: {
      ...top,
      settings: withProperties(settings, { ...settingsProps, checks: withProperties(checks, checkLevels()) }),
      defaults: withProperties(defaults, {
        ...defaultsProps,
        monitor: withProperties(obj(defaultsProps.monitor, 'defaults.monitor'), monitorProperties()),
        alert: withProperties(obj(defaultsProps.alert, 'defaults.alert'), alertBody()),
      }),
      ...(top.templates !== undefined ? { templates: templatesSchema(obj(top.templates, 'templates'), alertItemProps) } : {}),
      monitors: {
        ...monitors,
        items: withProperties(monitorItem, {
          label: monitorProps.label ?? null,
          previous_labels: monitorProps.previous_labels ?? null,
          ...(monitorProps.template !== undefined ? { template: monitorProps.template } : {}),
          ...(monitorProps.alert_set !== undefined ? { alert_set: monitorProps.alert_set } : {}),
          ...monitorProperties(),
          disable_checks: disableChecks(monitorProps.disable_checks, 'monitors.items.disable_checks'),
          alerts: { ...nested, items: withProperties(nestedItem, alertItemProps({}, nestedProps, 'monitors.items.alerts.items')) },
        }),
      },
      alerts: {
        ...alerts,
        items: withProperties(alertItem, alertItemProps({ monitor: alertProps.monitor ?? null }, alertProps, 'alerts.items')),
      },
      groups: {
        ...groups,
        items: withProperties(groupItem, {
          name: groupProps.name ?? null,
          previous_names: groupProps.previous_names ?? null,
          monitors: groupProps.monitors ?? null,
          [SLO_FIELD.field]: json(SLO_FIELD.schema),
          disable_checks: disableChecks(groupProps.disable_checks, 'groups.items.disable_checks'),
        }),
      },
    },
  };
}

/** `templates`: monitor templates take the monitor fields, alert sets lists of alerts as under a monitor. */
function templatesSchema(templates: JsonObject, alertItemProps: (before: JsonObject, old: JsonObject, where: string) => JsonObject): JsonObject {
  const props = obj(templates.properties, 'templates.properties');
  const monitorsNode = obj(props.monitors, 'templates.monitors');
  const [mPattern, mItem] = Object.entries(obj(monitorsNode.patternProperties, 'templates.monitors.patternProperties'))[0]!;
  const setsNode = obj(props.alert_sets, 'templates.alert_sets');
  const [sPattern, sList] = Object.entries(obj(setsNode.patternProperties, 'templates.alert_sets.patternProperties'))[0]!;
  const list = obj(sList, 'templates.alert_sets list');
  const item = obj(list.items, 'templates.alert_sets items');
  const itemProps = obj(item.properties, 'templates.alert_sets items.properties');
  return withProperties(templates, {
    ...props,
    monitors: { ...monitorsNode, patternProperties: { [mPattern]: withProperties(obj(mItem, 'templates.monitors item'), monitorProperties()) } },
    alert_sets: { ...setsNode, patternProperties: { [sPattern]: { ...list, items: withProperties(item, alertItemProps({}, itemProps, 'templates.alert_sets.items')) } } },
  });
}

/** The file's text: two-space JSON and a final newline, as committed. */
export function renderConfigSchemaText(committed: unknown): string {
  return `${JSON.stringify(renderConfigSchema(committed), null, 2)}\n`;
}
