#!/usr/bin/env node
// Generates the "Reference" tables of docs/configuration.md from schemas/monsync.schema.json, so the
// two cannot drift: `node scripts/config-reference.mjs --write` rewrites the block between the markers;
// test/docs/configuration.test.ts fails when the page is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const START = '<!-- config-reference:start (generated from schemas/monsync.schema.json by scripts/config-reference.mjs) -->';
const END = '<!-- config-reference:end -->';
export const PAGE = 'docs/configuration.md';

export function configReference(schema) {
  const sections = [
    ['Top level', schema, ''],
    ['`settings`', schema.properties.settings, 'settings.'],
    ['`defaults.monitor` (any monitor field but `label`)', schema.properties.defaults.properties.monitor, 'defaults.monitor.'],
    ['`defaults.alert` (any alert field but the subjects)', schema.properties.defaults.properties.alert, 'defaults.alert.'],
    ['`monitors[]`: SMTP monitors managed here', schema.properties.monitors.items, ''],
    ['`monitors[].alerts[]`', schema.properties.monitors.items.properties.alerts.items, ''],
    ['`alerts[]`: alerts on monitors managed elsewhere', schema.properties.alerts.items, ''],
    ['`groups[]`', schema.properties.groups.items, ''],
    ['`slo` (in `defaults.monitor`, `templates.monitors`, `monitors[]` and `groups[]`)', schema.properties.monitors.items.properties.slo, 'slo.'],
    ['`maintenance[]`', schema.properties.maintenance.items, ''],
    ['`maintenance[].weekly`', schema.properties.maintenance.items.properties.weekly, 'weekly.'],
  ];
  const out = [];
  for (const [title, node, prefix] of sections) {
    const required = new Set(node.required ?? []);
    out.push(`### ${title}`, '', '| field | type / allowed values | meaning |', '|---|---|---|');
    for (const [name, prop] of Object.entries(node.properties ?? {})) {
      const req = required.has(name) ? ' (required)' : '';
      out.push(`| \`${prefix}${name}\`${req} | ${typeOf(prop)} | ${cell(prop.description ?? '')} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

function typeOf(prop) {
  if (prop.enum) return prop.enum.map((v) => `\`${JSON.stringify(v)}\``).join(', ');
  if (prop.const !== undefined) return `\`${JSON.stringify(prop.const)}\``;
  const variants = prop.anyOf ?? prop.oneOf;
  if (variants) return variants.map(typeOf).join(' or ');
  // The only fields without a type (slo's objective and round_trip) take text or a number.
  const t = Array.isArray(prop.type) ? prop.type.join(' or ') : (prop.type ?? 'string or number');
  if (t === 'array') return `list of ${prop.items ? typeOf(prop.items) : 'any'}`;
  if (t === 'object' && prop.additionalProperties && typeof prop.additionalProperties === 'object') {
    return `map of ${typeOf(prop.additionalProperties)}`;
  }
  return t;
}

function cell(text) {
  return text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');
}

/** The page with the block between the markers replaced by `reference`. */
export function pageWithReference(page, reference) {
  const a = page.indexOf(START);
  const b = page.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${PAGE} has no config-reference markers`);
  return `${page.slice(0, a + START.length)}\n\n${reference}\n${page.slice(b)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const schema = JSON.parse(readFileSync(`${root}schemas/monsync.schema.json`, 'utf8'));
  const reference = configReference(schema);
  if (process.argv.includes('--write')) {
    const page = readFileSync(`${root}${PAGE}`, 'utf8');
    writeFileSync(`${root}${PAGE}`, pageWithReference(page, reference));
  } else {
    process.stdout.write(`${reference}\n`);
  }
}
