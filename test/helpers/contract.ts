/**
 * Holds the emulator's answers and refusals to the contract it serves at /v2/docs
 * (schemas/openapi.json). startTestEmulator records every exchange and checks them when the emulator
 * closes, so every suite that talks to an emulator checks the document too:
 *
 * - each answer's status is documented for its operation, and its body validates against that
 *   response's schema;
 * - a request the emulator took (2xx) validates against the operation's request schema, and one it
 *   refused with 400 does not, unless the refusal is one a schema cannot express (an id or time zone
 *   the account does not know, a timeout only SMTP alerts need, a monitor of another type).
 *
 * Exchanges with an injected fault (the control API's faults) are the test's doing, not the
 * service's, and calls to no documented operation (a 404 or 405 for an unknown path) are outside
 * the contract: both are left out.
 */
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { OPENAPI_PATH } from '../../src/emulator/docs.js';
import type { Exchange } from '../../src/emulator/index.js';

type Json = Record<string, any>;

/** Refusals a request schema cannot express: they depend on the account or on another field's meaning. */
export const SEMANTIC_REFUSALS: readonly RegExp[] = [
  /unknown (monitor|destination) id/,
  /unknown zone/,
  /is not a valid e-mail address/,
  /is not a host name, an IP address/,
  /timeout: required for alerts on SMTP monitors/,
  /only SMTP monitors can be modified/,
];

let loaded: { doc: Json; ajv: InstanceType<typeof Ajv2020.default>; cache: Map<string, ValidateFunction> } | undefined;

function load() {
  if (loaded) return loaded;
  const doc = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as Json;
  const ajv = new Ajv2020.default({ allErrors: true, strict: false });
  addFormats.default(ajv);
  ajv.addSchema(doc, 'openapi.json');
  loaded = { doc, ajv, cache: new Map() };
  return loaded;
}

const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const segments = (p: string) => p.replace(/\/+$/, '').split('/');

/** The documented path template a request path falls under, or undefined. */
export function operationPath(method: string, path: string): string | undefined {
  const { doc } = load();
  const have = segments(path);
  for (const [template, item] of Object.entries(doc.paths as Json)) {
    if (!item[method.toLowerCase()]) continue;
    const want = segments(template);
    if (want.length === have.length && want.every((w, i) => w.startsWith('{') || w === have[i])) return template;
  }
  return undefined;
}

function validator(ref: string): ValidateFunction {
  const l = load();
  let v = l.cache.get(ref);
  if (!v) {
    v = l.ajv.compile({ $ref: `openapi.json#${ref}` });
    l.cache.set(ref, v);
  }
  return v;
}

const MEDIA: Record<string, string> = { json: 'application/json', form: 'application/x-www-form-urlencoded' };

/** The request schema's validator of an operation, or undefined when it takes no body. */
export function requestValidator(template: string, method: string): ValidateFunction | undefined {
  const op = load().doc.paths[template][method.toLowerCase()];
  const content = op.requestBody?.content as Json | undefined;
  if (!content) return undefined;
  const media = Object.keys(content).find((m) => m === MEDIA.json || m === MEDIA.form);
  if (!media) return undefined;
  return validator(`/paths/${pointer(template)}/${method.toLowerCase()}/requestBody/content/${pointer(media)}/schema`);
}

export interface ContractOptions {
  /**
   * Ids of objects the test seeded raw (control API): they come back as the test wrote them, which
   * may be a shape the service is not documented to send (null fields, numbers as strings), so an
   * answer's problems inside such an object are the test's doing and left out.
   */
  seeded?: ReadonlySet<string>;
}

/** Whether the value at an error's path lies inside an object with a seeded id. */
function insideSeeded(answer: unknown, instancePath: string, seeded: ReadonlySet<string> | undefined): boolean {
  if (!seeded || seeded.size === 0) return false;
  let node: unknown = answer;
  for (const raw of instancePath.split('/').slice(1)) {
    if (node !== null && typeof node === 'object' && seeded.has(String((node as Json).id))) return true;
    node = (node as Json | null)?.[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return false;
}

/** What is wrong with one exchange, by the document; empty when nothing is. */
export function exchangeProblems(x: Exchange, opts: ContractOptions = {}): string[] {
  if (x.fault !== null) return [];
  const template = operationPath(x.method, x.path);
  if (template === undefined) return [];
  const { doc, ajv } = load();
  const method = x.method.toLowerCase();
  const op = doc.paths[template][method];
  const where = `${x.method} ${x.path} (${x.status})`;
  const problems: string[] = [];

  const status = String(x.status);
  // An exact status first, then its range (`5XX`), then `default`.
  const key = [status, `${status[0]}XX`, 'default'].find((k) => op.responses[k] !== undefined);
  const response = key === undefined ? undefined : op.responses[key];
  if (response === undefined) problems.push(`${where}: status ${status} is not documented for ${x.method} ${template}`);
  else if (x.answer !== undefined && response.content?.['application/json']?.schema) {
    const v = validator(`/paths/${pointer(template)}/${method}/responses/${key}/content/${pointer('application/json')}/schema`);
    const errors = v(x.answer) ? [] : (v.errors ?? []).filter((e) => !insideSeeded(x.answer, e.instancePath, opts.seeded));
    if (errors.length > 0) problems.push(`${where}: the answer ${JSON.stringify(x.answer).slice(0, 300)} does not match the documented response: ${ajv.errorsText(errors)}`);
  }

  const rv = requestValidator(template, method);
  if (rv !== undefined && x.body !== undefined) {
    const ok = x.status >= 200 && x.status < 300;
    const valid = rv(x.body);
    const errors = ajv.errorsText(rv.errors);
    if (ok && !valid) problems.push(`${where}: the emulator took ${JSON.stringify(x.body).slice(0, 300)}, which the request schema refuses: ${errors}`);
    const message = String((x.answer as Json | undefined)?.error ?? '');
    const bodyRefusal = x.status === 400 && (x.contentType ?? '').startsWith(template === '/v2/token' ? MEDIA.form! : MEDIA.json!);
    if (bodyRefusal && valid && !/malformed JSON|must be a JSON object/.test(message) && !SEMANTIC_REFUSALS.some((r) => r.test(message))) {
      problems.push(`${where}: the emulator refused ${JSON.stringify(x.body).slice(0, 300)} ("${message}"), which the request schema takes`);
    }
  }
  return problems;
}

/** Every problem of the exchanges, one line each. */
export function contractProblems(exchanges: readonly Exchange[], opts: ContractOptions = {}): string[] {
  return exchanges.flatMap((x) => exchangeProblems(x, opts));
}
