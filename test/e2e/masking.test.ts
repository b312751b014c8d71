/**
 * Credentials masked in everything monsync prints or writes (issue 45): a configuration that
 * rebuilds the password from two harmless-looking variables (`label: mx-${PART_A}${PART_B}`), and
 * one that types all but its last letter, shows it in no output of plan (text, JSON, Markdown),
 * apply, the refusal to save it in a plan file, or report (text, JSON, CSV, HTML): every credential variable's value is
 * masked at the one masking point (src/util/redact.ts) every output goes through.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { PASSWORD, runCli } from '../helpers/cli.js';
import type { TestEmulator } from '../helpers/emulator.js';
import { configYaml, e2eSuite, managed, state, type Workspace } from './support.js';

let emu: TestEmulator;
let ws: Workspace;

e2eSuite((e, w) => {
  emu = e;
  ws = w;
});

// demo-password: 13 characters, split in two variables no name of which looks like a secret.
const PART_A = PASSWORD.slice(0, 5);
const PART_B = PASSWORD.slice(5);
/** 12 of its 13 characters. */
const NEARLY = PASSWORD.slice(0, -1);

describe('a password rebuilt by the configuration', () => {
  it('appears in no output of plan, apply, the saved plan or report, whole or all but its last letter', async () => {
    expect(`${PART_A}${PART_B}`).toBe(PASSWORD);
    const yaml = configYaml({ monitors: [{ label: 'mx-LABEL' }, { label: 'mx-near-NEAR' }] })
      .replace('"mx-LABEL"', '"mx-${PART_A}${PART_B}"')
      .replace('"mx-near-NEAR"', '"mx-near-${PART_A}' + NEARLY.slice(5) + '"')
      .replace(/ip_address: "mx-[^"]*"/g, 'ip_address: "mx.example.com"');
    await ws.write('mask/monsync.yaml', yaml);
    const env = { PART_A, PART_B };
    const outputs: [string, string][] = [];
    const run = async (args: string[], expected: number) => {
      const r = await runCli(args, { url: emu.url, cwd: ws.dir, env });
      expect(r.code, `${args.join(' ')}\n${r.stdout}${r.stderr}`).toBe(expected);
      outputs.push([`${args.join(' ')} (stdout)`, r.stdout], [`${args.join(' ')} (stderr)`, r.stderr]);
    };
    for (const format of ['text', 'json', 'markdown']) await run(['plan', 'mask', '--format', format], 0);
    // A saved plan would keep the secret on disk (or, masked, apply `***`): not saved, and said why.
    await run(['plan', 'mask', '--out', 'mask.plan'], 1);
    expect(outputs.at(-1)![1]).toMatch(/not saving the plan to mask\.plan: it holds the value of a credential variable/);
    expect(existsSync(ws.path('mask.plan'))).toBe(false);
    await run(['apply', 'mask', '--auto-approve'], 0);
    // The monitors exist on the service under their real labels: masking is of output only.
    expect(managed(await state(emu), 'e2e').map((m) => m.label).sort()).toEqual([`mx-${PASSWORD}`, `mx-near-${NEARLY}`]);
    for (const format of ['text', 'json', 'csv', 'html']) {
      await run(['report', '--since', '1d', '--format', format], 0);
      await run(['report', '--since', '1d', '--format', format, '--out', `report.${format}`], 0);
      outputs.push([`report.${format}`, await readFile(ws.path(`report.${format}`), 'utf8')]);
    }
    const shown = outputs.filter(([, text]) => text.includes('mx-***'));
    expect(shown.length, 'the labels are still shown, masked').toBeGreaterThan(5);
    for (const [where, text] of outputs) {
      expect(text.includes(PASSWORD), `${where} shows the password`).toBe(false);
      expect(text.includes(NEARLY), `${where} shows 12 of its 13 characters`).toBe(false);
    }
  });
});
