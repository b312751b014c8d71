/**
 * schemas/openapi.json: structurally complete (every endpoint of API sections 4.1 to 4.8, its
 * parameters, bodies, responses and security), consistent with the emulator's route table, and
 * true: the emulator's answers validate against the response schemas it documents. Also the
 * /v2/docs page and its files (the rendering in a browser is test/docs-ui).
 */
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_PATH } from '../../src/emulator/docs.js';
import { buildApiRouter } from '../../src/emulator/routes.js';
import { ALERT_FIELDS, MONITOR_BODY_TABLE, MONITOR_CREATE_FIELDS, TIMERS, TTLS } from '../../src/emulator/validate.js';
import { apiCall, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

type Json = Record<string, any>;
const doc = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as Json;

/** Every operation of sections 4.1 to 4.8 of the API document, as documented. */
const DOCUMENTED = [
  'POST /v2/token',
  'GET /v2/status',
  'GET /v2/version',
  'GET /v1/Status/',
  'GET /v1/Status/Filter/',
  'GET /v1/Config/Group/',
  'GET /v1/Config/Group/{group_id}/',
  'POST /v1/Config/Group/',
  'PUT /v1/Config/Group/{group_id}/',
  'DELETE /v1/Config/Group/{group_id}/',
  'GET /v1/Config/Monitor/',
  'GET /v1/Config/Monitor/{monitor_id}/',
  'POST /v1/Config/Monitor/',
  'PUT /v1/Config/Monitor/{monitor_id}/',
  'DELETE /v1/Config/Monitor/{monitor_id}/',
  'GET /v1/Config/Alert/',
  'GET /v1/Config/Alert/{alert_id}/',
  'POST /v1/Config/Alert/',
  'PUT /v1/Config/Alert/{alert_id}/',
  'DELETE /v1/Config/Alert/{alert_id}/',
  'GET /v1/Pause/Alert/',
  'POST /v1/Pause/Alert/',
  'POST /v1/Pause/Alert/{alert_id}/',
  'POST /v1/Pause/Monitor/{monitor_id}/',
  'DELETE /v1/Pause/Alert/',
  'DELETE /v1/Pause/Alert/{monitor_id}/',
  'GET /v1/Config/AlertDestination/',
  'GET /v1/Config/AlertDestination/{alert_destination_id}/',
  'GET /v1/Data/Monitor/',
  'GET /v1/Data/Monitor/{monitor_id}/',
  'GET /v1/Data/Monitor/Response/{monitor_id}/',
];

/** Placeholders do not take part in matching: OpenAPI forbids two templates differing only in their names. */
const shape = (path: string): string => path.replace(/\{[^}]+\}/g, '{}');
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function operations(): { method: string; path: string; op: Json; pathItem: Json }[] {
  const out: { method: string; path: string; op: Json; pathItem: Json }[] = [];
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const m of METHODS) if (item[m]) out.push({ method: m.toUpperCase(), path, op: item[m], pathItem: item });
  }
  return out;
}

function resolvePointer(ref: string): unknown {
  expect(ref.startsWith('#/')).toBe(true);
  let node: any = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node?.[key];
  }
  return node;
}

describe('schemas/openapi.json', () => {
  it('is OpenAPI 3.1 with info, servers, tags and the three security schemes', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toBeTruthy();
    expect(doc.info.version).toBeTruthy();
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    const schemes = doc.components.securitySchemes;
    expect(schemes.basicAuth).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(schemes.oauth2).toMatchObject({ type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/v2/token', scopes: {} } } });
    expect(schemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    const tags = new Set((doc.tags as Json[]).map((t) => t.name));
    for (const { op } of operations()) for (const t of op.tags) expect(tags.has(t)).toBe(true);
  });

  it('documents every endpoint of sections 4.1 to 4.8', () => {
    const have = new Set(operations().map(({ method, path }) => `${method} ${shape(path)}`));
    for (const e of DOCUMENTED) {
      const [method, path] = e.split(' ') as [string, string];
      expect(have.has(`${method} ${shape(path)}`), e).toBe(true);
    }
  });

  it('gives each operation a unique id, a summary, responses, its security, and each path placeholder a parameter', () => {
    const ids = new Set<string>();
    for (const { method, path, op, pathItem } of operations()) {
      const where = `${method} ${path}`;
      expect(op.operationId, where).toBeTruthy();
      expect(ids.has(op.operationId), where).toBe(false);
      ids.add(op.operationId);
      expect(op.summary, where).toBeTruthy();
      expect(op.responses['200'], where).toBeDefined();
      expect(op.responses['200'].content['application/json'].schema, where).toBeDefined();
      if (path.startsWith('/v1/')) {
        expect(op.security, where).toEqual([{ basicAuth: [] }]);
        expect(op.responses['401'], where).toBeDefined();
      } else if (path === '/v2/token') {
        expect(op.security).toEqual([{ basicAuth: [] }]);
        expect(Object.keys(op.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
      } else {
        expect(op.security, where).toEqual([{ oauth2: [] }, { bearerAuth: [] }]);
      }
      const params = [...(pathItem.parameters ?? []), ...(op.parameters ?? [])] as Json[];
      for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
        expect(params.some((p) => p.in === 'path' && p.name === name && p.required === true), `${where}: ${name}`).toBe(true);
      }
      if (method === 'POST' || method === 'PUT') expect(op.requestBody?.required, where).toBe(true);
    }
  });

  it('documents the query parameters of status, filter and data', () => {
    const names = (path: string, method = 'get'): string[] => {
      const item = doc.paths[path];
      return [...(item.parameters ?? []), ...(item[method].parameters ?? [])].map((p: Json) => p.name);
    };
    expect(names('/v2/status')).toEqual(['all']);
    expect(names('/v1/Status/Filter/')).toEqual(['t', 'prefix', 'suffix', 'contains', 'meta']);
    expect(names('/v1/Data/Monitor/')).toEqual(['begin', 'end', 'average', 'meta']);
    expect(names('/v1/Data/Monitor/{monitor_id}/')).toEqual(['monitor_id', 'begin', 'end', 'average']);
    expect(names('/v1/Data/Monitor/Response/{monitor_id}/')).toEqual(['monitor_id', 'begin', 'end']);
    const filterT = doc.paths['/v1/Status/Filter/'].get.parameters.find((p: Json) => p.name === 't');
    expect(filterT.schema.default).toBe(1800);
    expect(doc.components.schemas.MonitorCreate.required).toEqual(['type', 'label', 'timer', 'time_zone', 'ip_address', 'test_account']);
    expect(doc.components.schemas.MonitorCreate.properties.timer.enum).toEqual([3, 5, 10, 15, 20, 30]);
    // timeout: required for alerts on SMTP monitors only, which a schema of the body alone cannot say.
    expect(doc.components.schemas.AlertCreate.required).toEqual(['type', 'monitor', 'subject_init', 'subject_term']);
  });

  it('describes the monitor body the emulator takes: its fields, and on modify the same ones, none required', () => {
    const create = doc.components.schemas.MonitorCreate;
    const update = doc.components.schemas.MonitorUpdate;
    expect(Object.keys(create.properties)).toEqual([...MONITOR_CREATE_FIELDS]);
    expect(update.properties).toEqual(create.properties);
    expect(update.required).toBeUndefined();
    expect([create.additionalProperties, update.additionalProperties]).toEqual([false, false]);
    expect(Object.keys(doc.components.schemas.AlertCreate.properties).sort()).toEqual([...ALERT_FIELDS].sort());
    for (const row of MONITOR_BODY_TABLE) {
      const prop = create.properties[row.field];
      expect(prop.default === undefined || row.createDefault === undefined ? 'none' : prop.default, row.field).toEqual(
        prop.default === undefined || row.createDefault === undefined ? 'none' : row.createDefault,
      );
      expect(create.required.includes(row.field), row.field).toBe(row.required);
    }
    expect(create.properties.timer.enum).toEqual([...TIMERS]);
    expect(create.properties.ttl.enum).toEqual([...TTLS]);
  });

  it('has no dangling $ref', () => {
    const refs: string[] = [];
    const walk = (n: unknown): void => {
      if (Array.isArray(n)) n.forEach(walk);
      else if (n && typeof n === 'object') {
        for (const [k, v] of Object.entries(n)) {
          if (k === '$ref' && typeof v === 'string') refs.push(v);
          else walk(v);
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(50);
    for (const r of refs) expect(resolvePointer(r), r).toBeDefined();
  });

  it('matches the emulator route table both ways (the docs pages aside)', () => {
    const router = buildApiRouter();
    const routed = router.routes.filter((r) => !r.pattern.startsWith('/v2/docs'));
    for (const { method, path } of operations()) {
      const sample = path.replace(/\{[^}]+\}/g, '123');
      const m = router.match(method, sample);
      expect(m.route, `${method} ${path}`).not.toBeNull();
    }
    const documented = operations().map(({ method, path }) => `${method} ${shape(path).replace(/\/$/, '')}`);
    for (const r of routed) {
      expect(documented, `${r.method} ${r.pattern}`).toContain(`${r.method} ${r.pattern.replace(/:[a-z_]+/g, '{}')}`);
    }
  });
});

describe('the emulator answers as documented', () => {
  let emu: TestEmulator;
  const ajv = new Ajv2020.default({ allErrors: true, strict: false });
  addFormats.default(ajv);
  ajv.addSchema(doc, 'openapi.json');
  const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
  const validatorFor = (path: string, method: string) =>
    ajv.compile({ $ref: `openapi.json#/paths/${pointer(path)}/${method}/responses/200/content/${pointer('application/json')}/schema` });

  beforeAll(async () => {
    emu = await startTestEmulator({ seed: 'empty' });
  });
  afterAll(() => emu.close());

  it('on every read, after a simulated outage with alerts, pauses and groups', async () => {
    await emu.control.reset('empty');
    const start = (await emu.control.clock()).now - 6 * 3600;
    await emu.control.setClock(start);
    await emu.control.seed({
      destinations: [{ label: 'ops', destination: 'ops@example.com', type: 'email', subscribed: true }],
    });
    const m = (
      await apiCall(emu, 'POST', '/v1/Config/Monitor/', {
        body: { type: 'smtp', label: 'mx', timer: 5, time_zone: 'Europe/Berlin', ip_address: 'mx', test_account: 'p@example.org', ttl: 30 },
      })
    ).json.monitor;
    const a = (
      await apiCall(emu, 'POST', '/v1/Config/Alert/', {
        body: { type: 'up-down', monitor: m.id, subject_init: 'd', subject_term: 'u', message_init: '', message_term: '', timeout: 10, repeat: true, alert_destinations: ['701'] },
      })
    ).json.alert;
    const g = (await apiCall(emu, 'POST', '/v1/Config/Group/', { body: { name: 'g', monitors: [m.id] } })).json.group;
    await emu.control.simulation({ failure_rate: 0.2 });
    for (let i = 0; i < 12; i++) await emu.control.advance(600);
    await emu.control.outage(m.id, 3600);
    for (let i = 0; i < 12; i++) await emu.control.advance(600);
    await apiCall(emu, 'POST', `/v1/Pause/Alert/${a.id}/`, { body: { seconds: 600 } });
    const token = await emu.token();
    const bearer = { auth: `Bearer ${token}` };

    const reads: [string, string, string, Record<string, unknown>?][] = [
      ['/v2/status', '/v2/status?all=true', 'get', bearer],
      ['/v2/version', '/v2/version', 'get', bearer],
      ['/v1/Status/', '/v1/Status/', 'get'],
      ['/v1/Status/Filter/', '/v1/Status/Filter/?prefix=mx&t=14400', 'get'],
      ['/v1/Config/Group/', '/v1/Config/Group/', 'get'],
      ['/v1/Config/Group/{group_id}/', `/v1/Config/Group/${g.id}/`, 'get'],
      ['/v1/Config/Monitor/', '/v1/Config/Monitor/', 'get'],
      ['/v1/Config/Monitor/{monitor_id}/', `/v1/Config/Monitor/${m.id}/`, 'get'],
      ['/v1/Config/Alert/', '/v1/Config/Alert/', 'get'],
      ['/v1/Config/Alert/{alert_id}/', `/v1/Config/Alert/${a.id}/`, 'get'],
      ['/v1/Pause/Alert/', '/v1/Pause/Alert/', 'get'],
      ['/v1/Config/AlertDestination/', '/v1/Config/AlertDestination/', 'get'],
      ['/v1/Config/AlertDestination/{alert_destination_id}/', '/v1/Config/AlertDestination/701/', 'get'],
      ['/v1/Data/Monitor/', `/v1/Data/Monitor/?begin=${start}`, 'get'],
      ['/v1/Data/Monitor/{monitor_id}/', `/v1/Data/Monitor/${m.id}/?begin=${start}&average=hour`, 'get'],
      ['/v1/Data/Monitor/{monitor_id}/', `/v1/Data/Monitor/${m.id}/?begin=${start}`, 'get'],
      ['/v1/Data/Monitor/Response/{monitor_id}/', `/v1/Data/Monitor/Response/${m.id}/?begin=${start}`, 'get'],
    ];
    for (const [template, url, method, opts] of reads) {
      const r = await apiCall(emu, 'GET', url, opts ?? {});
      expect(r.status, url).toBe(200);
      const validate = validatorFor(template, method);
      expect(validate(r.json), `${url}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
    const filter = (await apiCall(emu, 'GET', '/v1/Status/Filter/?prefix=mx&t=14400')).json.monitor_list[0];
    expect(filter.last_failed).not.toBeNull();
    expect(filter.last_alert).not.toBeNull();

    const token2 = await fetch(`${emu.url}/v2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    const tv = validatorFor('/v2/token', 'post');
    expect(tv(await token2.json())).toBe(true);
    // Pausing on the Alert path answers in one shape for an alert id, another for a monitor id.
    const pv = validatorFor('/v1/Pause/Alert/{id}/', 'post');
    for (const target of [a.id, m.id]) {
      const paused = await apiCall(emu, 'POST', `/v1/Pause/Alert/${target}/`, { body: { seconds: 60 } });
      expect(paused.status, target).toBe(200);
      expect(pv(paused.json), `${target}: ${ajv.errorsText(pv.errors)}`).toBe(true);
    }
    const created = await apiCall(emu, 'POST', '/v1/Config/Group/', { body: { name: 'h' } });
    const gv = validatorFor('/v1/Config/Group/', 'post');
    expect(gv(created.json), ajv.errorsText(gv.errors)).toBe(true);
    const err = await apiCall(emu, 'GET', '/v1/Config/Monitor/999/');
    const ev = ajv.compile({ $ref: 'openapi.json#/components/schemas/V1Error' });
    expect(ev(err.json)).toBe(true);
  });
});

describe('/v2/docs', () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: 'empty' });
  });
  afterAll(() => emu.close());

  it('serves the page, the description and the UI files locally, without authentication', async () => {
    const page = await fetch(`${emu.url}/v2/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    // Nothing from outside: every script and stylesheet is under /v2/docs/.
    const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(urls.length).toBeGreaterThanOrEqual(3);
    for (const u of urls) expect(u.startsWith('/v2/docs/')).toBe(true);
    for (const u of urls) {
      const r = await fetch(`${emu.url}${u}`);
      expect(r.status, u).toBe(200);
      expect((await r.arrayBuffer()).byteLength, u).toBeGreaterThan(100);
    }
    const init = await (await fetch(`${emu.url}/v2/docs/swagger-initializer.js`)).text();
    expect(init).toContain("url: '/v2/docs/openapi.json'");
    // The online validator badge would call out to validator.swagger.io.
    expect(init).toContain('validatorUrl: null');
    const spec = await fetch(`${emu.url}/v2/docs/openapi.json`);
    expect(spec.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await spec.json()).toEqual(doc);
    const css = await fetch(`${emu.url}/v2/docs/swagger-ui.css`);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('serves nothing else of the disk', async () => {
    for (const p of ['/v2/docs/package.json', '/v2/docs/..%2F..%2Fpackage.json', '/v2/docs/index.js', '/v2/docs/a/b']) {
      const r = await fetch(`${emu.url}${p}`);
      expect(r.status, p).toBe(404);
    }
  });
});
