/**
 * The review of several accounts (issue 29): one Markdown comment with a summary table and a
 * section per account, one JSON document valid against schemas/plan.schema.json, text with a
 * heading per account. A failed account is shown in its place.
 */
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { renderAccountsJson, renderAccountsMarkdown, renderAccountsText, type AccountPlan } from '../../src/render/plan-accounts.js';
import { renderPlanJson } from '../../src/render/plan-json.js';
import { emptyPlan, richPlan } from './fixtures.js';

const results = (): AccountPlan[] => [
  { account: 'staging', plan: { ...richPlan(), account: 'staging', target: 'https://staging.example.net' }, needsForce: false },
  { account: 'production', plan: { ...emptyPlan(), account: 'production', target: 'https://api.knowledgefront.com' }, needsForce: false },
  { account: 'customer-a', error: ['could not connect to api.customer-a.example: connection refused (ECONNREFUSED)'] },
];

describe('several accounts', () => {
  it('the combined comment matches its golden file: one marker, the summary table, a section per account', async () => {
    const md = renderAccountsMarkdown(results(), { title: 'monsync plan — `monsync.yaml`, 3 accounts', commit: '0a1b2c3' });
    expect(md.match(/<!-- monsync-plan -->/g)).toHaveLength(1);
    await expect(md).toMatchFileSnapshot('./__golden__/plan-accounts.md');
  });

  it('the summary row says which account needs --force', () => {
    const [first] = results();
    const md = renderAccountsMarkdown([{ ...(first as Extract<AccountPlan, { plan: unknown }>), needsForce: true }]);
    expect(md).toMatch(/^\| <code>staging<\/code> \| .* \| ⚠️ yes \|$/m);
  });

  it('text gives each account a heading, the failed one its error', async () => {
    await expect(renderAccountsText(results(), { color: false })).toMatchFileSnapshot('./__golden__/plan-accounts.txt');
  });

  it('the JSON document and a single account plan with its account both validate against schemas/plan.schema.json', () => {
    const ajv = new Ajv2020.default({ allErrors: true, strict: true, strictTypes: false });
    addFormats.default(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8')));
    const doc = JSON.parse(renderAccountsJson(results()));
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
    expect(doc.accounts.map((a: { account: string }) => a.account)).toEqual(['staging', 'production', 'customer-a']);
    expect(validate(JSON.parse(renderPlanJson({ ...richPlan(), account: 'staging' }))) ? [] : validate.errors).toEqual([]);
    expect(validate({ ...doc, accounts: [{ account: 'x' }] })).toBe(false);
  });
});
