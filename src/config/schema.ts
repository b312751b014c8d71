/**
 * Stage 4: JSON Schema validation of each file's plain data against schemas/monsync.schema.json
 * (the same file editors use through the modeline), with every ajv error turned into a message in
 * the user's terms at the YAML position of the offending key or value.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { diag, show, type Diagnostic } from './diagnostics.js';
// Compiled from the schema at build time (scripts/schema-validator.mjs): no run compiles it.
import { validate as generatedValidate } from './generated/validate-schema.js';
import type { Locator } from './locate.js';
import { pointerToPath, type PathSegment } from './positions.js';
import { closest } from '../util/suggest.js';
import { plainPrefixProblem } from './account-prefix.js';

type JsonSchema = Record<string, unknown>;

const validator = generatedValidate as unknown as ValidateFunction;

/** Units shown after allowed numbers. */
const UNITS: Record<string, string> = { timer: ' minutes', ttl: ' seconds' };

/** Keys that belong elsewhere: a hint better than "did you mean". */
function misplacedHint(context: string, key: string): string | undefined {
  if (context === 'defaults.monitor') {
    if (key === 'label') return 'a label cannot have a default: each monitor sets its own';
    if (key === 'previous_labels' || key === 'alerts') return `${key} cannot have a default: set it on each monitor`;
  }
  if (context === 'defaults.alert') {
    if (key === 'subject_init' || key === 'subject_term' || key === 'previous_subjects') {
      return 'subjects cannot have defaults: each alert sets its own';
    }
    if (key === 'monitor') return 'monitor cannot have a default: each top-level alert names its own';
  }
  if (context === 'alert under a monitor' && key === 'monitor') {
    return 'an alert under a monitor\'s "alerts:" is on that monitor; remove "monitor" (only top-level "alerts:" name one)';
  }
  return undefined;
}

function contextOf(path: readonly PathSegment[]): string {
  const p = path.map(String);
  if (p.length === 0) return 'the top level';
  if ((p[0] === 'defaults' || p[0] === 'settings') && p.length === 2) return `${p[0]}.${p[1]}`;
  if (p.length === 1) return p[0]!;
  if (p[p.length - 1] === 'meta') return 'meta';
  if (p[0] === 'monitors' && p.length === 2) return 'monitor';
  if (p[0] === 'monitors' && p[2] === 'alerts' && p.length === 4) return 'alert under a monitor';
  if (p[0] === 'alerts' && p.length === 2) return 'alert';
  if (p[0] === 'groups' && p.length === 2) return 'group';
  if (p[0] === 'maintenance' && p.length === 2) return 'maintenance window';
  if (p[0] === 'maintenance' && p[2] === 'weekly' && p.length === 3) return 'weekly';
  return p[p.length - 1]!;
}

/** How a value is named in a message: `use_tls`, `meta.region`, `alert_destinations[1]`, `monitors[0]`. */
function fieldName(path: readonly PathSegment[]): string {
  let name = '';
  for (let i = path.length - 1; i >= 0; i--) {
    const seg = path[i]!;
    if (typeof seg === 'number') {
      name = `[${seg}]${name}`;
      continue;
    }
    name = `${seg}${name}`;
    if (path[i - 1] === 'meta') {
      name = `meta.${name}`;
    }
    break;
  }
  return name || 'the file';
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'nothing (an empty value)';
  if (typeof value === 'string') return `the text ${show(value)}`;
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'boolean') return String(value);
  return show(value);
}

const TYPE_NAMES: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'text',
  boolean: 'true or false',
  object: 'a mapping (key: value lines)',
  array: 'a list',
  null: 'empty',
};

function typeMessage(name: string, expected: string | string[], value: unknown): string {
  const types = (Array.isArray(expected) ? expected : [expected]).map((t) => TYPE_NAMES[t] ?? t);
  let hint = '';
  const wantsString = (Array.isArray(expected) ? expected : [expected]).includes('string');
  if (wantsString && (typeof value === 'number' || typeof value === 'boolean')) hint = `; quote it: "${String(value)}"`;
  else if (expected === 'integer' && typeof value === 'string' && /^-?\d+$/.test(value)) hint = '; remove the quotes';
  else if (expected === 'boolean' && typeof value === 'string' && /^(yes|no|on|off|y|n|True|False|TRUE|FALSE)$/.test(value)) {
    hint = '; YAML 1.2 booleans are true and false';
  } else if (expected === 'array' && typeof value === 'string') hint = `; write a list: [${JSON.stringify(value)}]`;
  else if (value === null && (expected === 'array' || expected === 'object')) hint = '; add entries or remove the key';
  return `${name} must be ${types.join(' or ')} (got ${describe(value)})${hint}`;
}

function enumMessage(name: string, context: string, allowed: unknown[], value: unknown): string {
  const key = name.replace(/\[\d+\]$/, '');
  if (allowed.length === 1 && key === 'type') {
    const why = context === 'monitor' || context === 'defaults.monitor'
      ? 'monsync manages SMTP monitors only'
      : 'only up/down alerts can be created';
    return `type must be ${JSON.stringify(allowed[0])}: ${why} (got ${describe(value)})`;
  }
  const unit = UNITS[key] ?? '';
  const listed = allowed.map((a) => (a === null ? 'null' : String(a))).join(', ');
  let message = `${name} must be one of ${listed}${unit} (got ${describe(value)})`;
  if (typeof value === 'string') {
    const suggestion = closest(value, allowed.filter((a): a is string => typeof a === 'string'));
    if (suggestion) message += `; did you mean ${JSON.stringify(suggestion)}?`;
    else if (allowed.every((a) => typeof a === 'number') && /^\d+$/.test(value)) message += '; remove the quotes';
  }
  return message;
}

function errorToDiagnostic(e: ErrorObject, locator: Locator): Diagnostic | undefined {
  const path = pointerToPath(e.instancePath);
  const name = fieldName(path);
  const context = contextOf(path);
  const file = locator.file;
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const props = Object.keys(((e.parentSchema as JsonSchema | undefined)?.properties as JsonSchema | undefined) ?? {});
      const where = locator.key([...path, key]);
      const hint = misplacedHint(context, key);
      if (hint) return diag(file, where, `unknown key ${JSON.stringify(key)} in ${context}: ${hint}`);
      const suggestion = closest(key, props);
      if (suggestion) return diag(file, where, `unknown key ${JSON.stringify(key)} in ${context}; did you mean ${JSON.stringify(suggestion)}?`);
      const extension = path.length === 0 ? ' (or an "x-" key for YAML anchors)' : '';
      // `$schema` is for editors (a JSON file's way to name its schema), not a key people look for.
      const allowed = props.filter((p) => p !== '$schema');
      return diag(file, where, `unknown key ${JSON.stringify(key)} in ${context}; allowed keys: ${allowed.join(', ')}${extension}`);
    }
    case 'required': {
      const key = String(params.missingProperty);
      if (path.length === 0 && key === 'version') {
        return diag(file, locator.value(path), 'missing "version: 1": every configuration file starts with the format version');
      }
      return diag(file, locator.value(path), `${context} is missing required key ${JSON.stringify(key)}`);
    }
    case 'type':
      return diag(file, locator.value(path), typeMessage(name, params.type as string | string[], e.data));
    case 'enum':
      return diag(file, locator.value(path), enumMessage(name, contextOf(path.slice(0, -1)), params.allowedValues as unknown[], e.data));
    case 'const':
      return diag(file, locator.value(path), `${name} must be ${JSON.stringify(params.allowedValue)} (got ${describe(e.data)})`);
    case 'minLength':
      return diag(file, locator.value(path), `${name} must not be empty`);
    case 'not': {
      // settings.accounts.NAME.env_prefix: the one value refused by `not`, and why.
      if (name === 'env_prefix' && typeof path[2] === 'string') return diag(file, locator.value(path), plainPrefixProblem(path[2]));
      const refused = ((e.parentSchema as JsonSchema | undefined)?.not as JsonSchema | undefined)?.const;
      return diag(file, locator.value(path), `${name} must not be ${JSON.stringify(refused)}`);
    }
    case 'pattern':
      // `\S`: the service refuses text that is only spaces (or other whitespace) where it needs a name.
      if (params.pattern === '\\S') return diag(file, locator.value(path), `${name} must not be blank (got ${describe(e.data)})`);
      return diag(file, locator.value(path), `${name} must match ${String(params.pattern)} (got ${describe(e.data)})`);
    case 'minimum':
    case 'maximum': {
      const schema = e.parentSchema as JsonSchema;
      // No upper limit but the largest whole number a request carries exactly.
      const unbounded = schema.maximum === Number.MAX_SAFE_INTEGER;
      const range =
        schema.maximum === undefined || (unbounded && e.keyword === 'minimum')
          ? `${String(schema.minimum)} or more`
          : unbounded
            ? `at most ${String(schema.maximum)}`
            : `between ${String(schema.minimum)} and ${String(schema.maximum)}`;
      return diag(file, locator.value(path), `${name} must be ${range} (got ${describe(e.data)})`);
    }
    case 'format':
      return diag(
        file,
        locator.value(path),
        params.format === 'email'
          ? `${name} must be an e-mail address such as probe@example.com (got ${describe(e.data)})`
          : `${name} must be a valid ${String(params.format)} (got ${describe(e.data)})`,
      );
    case 'uniqueItems': {
      const later = Math.max(Number(params.i), Number(params.j));
      const list = e.data as unknown[];
      return diag(file, locator.value([...path, later]), `${show(list[later])} is listed twice in ${name}`);
    }
    case 'propertyNames': {
      const key = String(params.propertyName);
      const where = locator.key([...path, key]);
      if (key === '') return diag(file, where, `${context} keys must not be empty`);
      return diag(
        file,
        where,
        `meta key ${JSON.stringify(key)} is reserved: monsync writes its ownership marker there (see settings.owner); remove it`,
      );
    }
    default:
      return diag(file, locator.value(path), `${name} ${e.message ?? 'is invalid'}`);
  }
}

export function validateFile(data: unknown, locator: Locator): Diagnostic[] {
  const validate = validator;
  if (validate(data)) return [];
  const errors = validate.errors ?? [];
  // One message per value: an enum lists the allowed values, which says more than their type;
  // otherwise a value of the wrong type fails its other keywords too, and the type error says it all.
  const enums = new Set(errors.filter((e) => e.keyword === 'enum').map((e) => e.instancePath));
  const typed = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  const emptied = new Set(errors.filter((e) => e.keyword === 'minLength').map((e) => e.instancePath));
  const out: Diagnostic[] = [];
  for (const e of errors) {
    if (e.keyword === 'type' && enums.has(e.instancePath)) continue;
    if (e.keyword !== 'type' && e.keyword !== 'enum' && typed.has(e.instancePath)) continue;
    // Empty text fails minLength and the not-blank pattern alike; "must not be empty" says it.
    if (e.keyword === 'pattern' && emptied.has(e.instancePath)) continue;
    // propertyNames reports the failing subschema too; its own error carries the key.
    if (e.schemaPath.includes('/propertyNames/')) continue;
    const d = errorToDiagnostic(e, locator);
    if (d) out.push(d);
  }
  return out;
}

/**
 * Values put in place of a required field whose value the schema refused, so the checks across
 * items and files (duplicate labels, required fields, references) can still run in the same pass;
 * the refused value has its own diagnostic already.
 */
const STAND_INS: Readonly<Record<string, unknown>> = {
  subject_term: 'monsync stand-in',
  ip_address: 'stand-in.invalid',
  test_account: 'stand-in@stand-in.invalid',
  timer: 5,
  time_zone: 'UTC',
  timeout: 15,
  version: 1,
};

const IDENTITY = new Set(['label', 'name', 'monitor', 'subject_init']);

/**
 * The data with what the schema refuses taken out, so a file with schema problems still goes
 * through the later stages and the user hears of every problem in one run (issue 24 §3): unknown
 * keys are dropped, refused values of required fields get a stand-in, other refused values are
 * dropped, an item missing its identity (or with a refused one) is dropped. Undefined when that does not make the file
 * acceptable (a problem at the top of the file): then only the schema's diagnostics are reported.
 */
export function salvage(data: unknown): unknown {
  let current: unknown = structuredClone(data);
  for (let round = 0; round < 8; round++) {
    if (validator(current)) return current;
    const errors = [...(validator.errors ?? [])].sort((a, b) => b.instancePath.length - a.instancePath.length);
    let changed = false;
    for (const e of errors) changed = repair(current, e) || changed;
    if (!changed) return undefined;
  }
  return validator(current) ? current : undefined;
}

/** One repair for one schema error; false when there is nothing it can do. */
function repair(root: unknown, e: ErrorObject): boolean {
  const path = e.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'additionalProperties') {
    const owner = at(root, path);
    const key = (e.params as { additionalProperty?: string }).additionalProperty;
    if (!isRecord(owner) || key === undefined || !(key in owner)) return false;
    delete owner[key];
    return true;
  }
  if (e.keyword === 'required') return dropItem(root, path);
  if (path.length === 0) return false;
  const key = path[path.length - 1]!;
  // An item whose identity is refused is dropped: a stand-in name would show up in other messages.
  if (IDENTITY.has(key)) return dropItem(root, path.slice(0, -1));
  const parent = at(root, path.slice(0, -1));
  if (Array.isArray(parent)) {
    // A refused list item (a destination label, a glob): dropped from its list.
    const i = Number(key);
    if (!Number.isInteger(i) || i >= parent.length) return false;
    parent.splice(i, 1);
    return true;
  }
  if (!isRecord(parent) || !(key in parent)) return false;
  if (key in STAND_INS && parent[key] !== STAND_INS[key]) parent[key] = STAND_INS[key];
  else if (key in STAND_INS) return false;
  else delete parent[key];
  return true;
}

/** Drops the item of a list that `path` is in or is (an item missing a required key). */
function dropItem(root: unknown, path: string[]): boolean {
  for (let n = path.length; n > 0; n--) {
    const parent = at(root, path.slice(0, n - 1));
    const i = Number(path[n - 1]);
    if (Array.isArray(parent) && Number.isInteger(i) && i < parent.length) {
      parent.splice(i, 1);
      return true;
    }
  }
  return false;
}

function at(root: unknown, path: string[]): unknown {
  let node = root;
  for (const seg of path) {
    if (Array.isArray(node)) node = node[Number(seg)];
    else if (isRecord(node)) node = node[seg];
    else return undefined;
  }
  return node;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
