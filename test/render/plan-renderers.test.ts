import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { diff } from '../../src/plan/diff.js';
import { parseSavedPlan } from '../../src/apply/saved-plan.js';
import { renderPlanJson } from '../../src/render/plan-json.js';
import { PLAN_COMMENT_MARKER, codeBlock, mdCode, renderPlanMarkdown } from '../../src/render/plan-markdown.js';
import { renderPlanText } from '../../src/render/plan-text.js';
import type { Plan } from '../../src/plan/types.js';
import { desiredState, dGroup, dMonitor, liveGroup, liveMonitor, liveState } from '../plan/helpers.js';
import { HOSTILE, emptyPlan, hostilePlan, prunePlan, richPlan } from './fixtures.js';

const ESC = '\u001b';

describe('golden files (colour off)', () => {
  it('text', async () => {
    await expect(renderPlanText(richPlan(), { color: false })).toMatchFileSnapshot('./__golden__/plan.txt');
  });
  it('markdown', async () => {
    await expect(renderPlanMarkdown(richPlan(), { commit: '0a1b2c3' })).toMatchFileSnapshot('./__golden__/plan.md');
  });
  it('json', async () => {
    await expect(renderPlanJson(richPlan())).toMatchFileSnapshot('./__golden__/plan.json');
  });
  it('text and markdown of a plan without changes', async () => {
    await expect(renderPlanText(emptyPlan(), { color: false })).toMatchFileSnapshot('./__golden__/no-changes.txt');
    await expect(renderPlanMarkdown(emptyPlan())).toMatchFileSnapshot('./__golden__/no-changes.md');
  });
});

describe('text', () => {
  it('ends with the plan line; colours only when asked', () => {
    const plain = renderPlanText(richPlan(), { color: false });
    expect(plain).not.toContain(ESC);
    expect(plain.trimEnd().split('\n').pop()).toBe('Plan: 3 to add, 7 to change, 1 to destroy.');
    const coloured = renderPlanText(richPlan(), { color: true });
    expect(coloured).toContain(`${ESC}[32m+${ESC}[39m monitor "mx-eu-3"`);
    expect(coloured).toContain(`${ESC}[33m~${ESC}[39m monitor "mx-us-1"`);
    expect(coloured).toContain(`${ESC}[31m-${ESC}[39m monitor "mx-legacy"`);
    expect(coloured.replace(/\u001b\[[0-9;]*m/g, '')).toBe(plain);
  });

  it('no changes', () => {
    const text = renderPlanText(emptyPlan(), { color: false });
    expect(text).toBe(
      'Left alone: 1 unmanaged monitor (--prune would delete 1 unmanaged monitor).\n\nNo changes. The account matches the configuration.\n',
    );
  });

  it('pruned deletes say so', () => {
    const text = renderPlanText(prunePlan(), { color: false });
    expect(text).toContain('  - monitor "hand-made"   (id 2, unmanaged, pruned)\n      and its test history\n      and its 1 alert "down"\n      and leaves group "sandbox"\n');
    expect(text).toContain('  - group "sandbox"   (id 9, unmanaged, pruned)\n');
    // A group has no test history of its own; a monitor's goes with it (the details say so too).
    expect(text).not.toMatch(/group "sandbox".*\n      and its test history/);
    expect(renderPlanMarkdown(prunePlan())).toContain('Its test history goes with it: the service keeps no results of a deleted monitor.');
    expect(text).not.toContain('--prune to delete');
    expect(renderPlanMarkdown(prunePlan())).toContain('| 🗑️ | monitor | <code>hand-made</code> | delete unmanaged (<code>--prune</code>) with its test history (and 1 alert: <code>down</code>; leaves group <code>sandbox</code>) |');
  });

  it('hostile labels cannot reach the terminal raw', () => {
    const text = renderPlanText(hostilePlan(), { color: false });
    expect(text).not.toContain(ESC);
    expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(text).toContain('+ monitor "\\u001b[31mred\\u001b[0m"');
    expect(text).toContain('+ monitor "line\\nbreak"');
  });
});

/** Markdown outside fenced code blocks, and the fenced blocks with their fences. */
function splitFences(md: string): { prose: string; blocks: { fence: string; body: string[] }[] } {
  const prose: string[] = [];
  const blocks: { fence: string; body: string[] }[] = [];
  let open: { fence: string; body: string[] } | null = null;
  for (const line of md.split('\n')) {
    if (open) {
      if (/^`{3,}$/.test(line) && line.length >= open.fence.length) {
        blocks.push(open);
        open = null;
      } else open.body.push(line);
    } else {
      const m = /^(`{3,})/.exec(line);
      if (m) open = { fence: m[1]!, body: [] };
      else prose.push(line);
    }
  }
  expect(open).toBeNull();
  return { prose: prose.join('\n'), blocks };
}

describe('markdown', () => {
  it('starts with the marker CI finds its comment by', () => {
    expect(renderPlanMarkdown(richPlan()).startsWith(`${PLAN_COMMENT_MARKER}\n### `)).toBe(true);
    expect(renderPlanMarkdown(emptyPlan())).toContain('**No changes. The account matches the configuration.**');
  });

  it('uses the caller title as given, on one line', () => {
    const md = renderPlanMarkdown(richPlan(), { title: 'monsync plan — `dir` against `https://x`\nsecond line' });
    expect(md.split('\n')[1]).toBe('### monsync plan — `dir` against `https://x` second line');
  });

  it('hostile labels stay inside their cells, code and blocks', () => {
    const p = hostilePlan();
    const md = renderPlanMarkdown(p);
    const { prose, blocks } = splitFences(md);
    // Tables: every row keeps exactly its four cells.
    const rows = prose.split('\n').filter((l) => l.startsWith('| '));
    expect(rows.length).toBe(p.changes.length + 1);
    for (const row of rows) expect(row.split('|')).toHaveLength(6);
    // No HTML but ours; no user text that GitHub would turn into mentions, links, emphasis or math.
    const tags = [...prose.matchAll(/<\/?([a-zA-Z][\w-]*)/g)].map((m) => m[1]);
    expect(new Set(tags)).toEqual(new Set(['code', 'details', 'summary', 'sub', 'br']));
    for (const raw of ['@octocat', '#123', '**bold**', '[link]', '$x$', '`tick`', '\\|', ':tada:']) {
      expect(prose).not.toContain(raw);
    }
    expect(prose.match(/<code>/g)?.length).toBe(prose.match(/<\/code>/g)?.length);
    expect(md).not.toContain(ESC);
    expect(md).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    // Summaries stay on their line, and every details block is closed.
    for (const line of prose.split('\n').filter((l) => l.startsWith('<details>'))) expect(line).toMatch(/<\/summary>$/);
    expect(prose.match(/<details>/g)?.length).toBe(p.changes.length);
    expect(prose.match(/<\/details>/g)?.length).toBe(p.changes.length);
    // Fences: longer than any backtick run inside, and the body holds the hostile text intact.
    for (const b of blocks) {
      const longest = Math.max(0, ...b.body.join('\n').match(/`+/g)?.map((r) => r.length) ?? []);
      expect(b.fence.length).toBeGreaterThan(longest);
    }
    expect(blocks.some((b) => b.body.some((l) => l.includes('`'.repeat(7))) && b.fence.length === 8)).toBe(true);
    expect(blocks.some((b) => b.body.some((l) => l.includes('</details><script>x</script>')))).toBe(true);
    expect(HOSTILE.length).toBeGreaterThan(5);
  });

  it('mdCode and codeBlock', () => {
    expect(mdCode('a|b `c` <d> @e\nf')).toBe('<code>a&#124;b &#96;c&#96; &lt;d&gt; &#64;e↵f</code>');
    expect(codeBlock('text', ['````x'])).toBe('`````text\n````x\n`````');
    expect(codeBlock('', ['plain'])).toBe('```\nplain\n```');
  });

  it('stays under the size limit by dropping details, then rows', () => {
    const p = hostilePlan();
    const full = renderPlanMarkdown(p);
    const limited = renderPlanMarkdown(p, { maxLength: Math.floor(full.length / 2) });
    expect(limited.length).toBeLessThanOrEqual(full.length / 2);
    expect(limited).toMatch(/Details of \d+ more changes left out/);
    expect(limited.split('\n').filter((l) => l.startsWith('| ')).length).toBe(p.changes.length + 1);
    const tiny = renderPlanMarkdown(p, { maxLength: 2500 });
    expect(tiny.length).toBeLessThanOrEqual(2500);
    expect(tiny).toMatch(/… and \d+ more changes/);
    expect(tiny).toContain('<sub>Fingerprint');
  });
});

describe('a comment that must be trimmed', () => {
  /** `creates` new monitors and one delete of `mx-old`, made by the real planner. */
  function bigPlan(creates: number): Plan {
    const old = liveMonitor({ id: '1', label: 'mx-old' });
    const monitors = Array.from({ length: creates }, (_, i) => dMonitor(`mx-new-${String(i).padStart(5, '0')}`, { ip_address: `mx${i}.example.com` }));
    return diff(desiredState({ monitors }), liveState({ monitors: [old] }), { target: 'https://x', now: new Date('2026-01-01T00:00:00Z') });
  }
  const rowsOf = (md: string) => md.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| | Kind'));

  it('lists a delete first and never trims it: 5,000 creates and one delete', () => {
    const p = bigPlan(5000);
    expect(p.summary).toEqual({ create: 5000, update: 0, delete: 1 });
    const md = renderPlanMarkdown(p);
    expect(md.length).toBeLessThanOrEqual(60_000);
    const rows = rowsOf(md);
    expect(rows[0]).toContain('<code>mx-old</code>');
    expect(rows[0]).toContain('🗑️');
    expect(md).toContain('**Plan: 5000 to add, 0 to change, 1 to destroy.**');
  });

  it('trims the other rows one by one, keeping as many as fit (at 2,200 changes and more, not none)', () => {
    for (const n of [2200, 5000]) {
      const md = renderPlanMarkdown(bigPlan(n));
      const rows = rowsOf(md);
      const shown = rows.filter((r) => r.includes('➕')).length;
      expect(shown).toBeGreaterThan(300);
      expect(rows.at(-1)).toContain(`… and ${n - shown} more changes`);
      // One more row would not have fitted.
      expect(md.length + rows[1]!.length + 1).toBeGreaterThan(60_000);
    }
  });
});

describe('json', () => {
  const schema = JSON.parse(readFileSync(new URL('../../schemas/plan.schema.json', import.meta.url), 'utf8'));
  const ajv = new Ajv2020.default({ allErrors: true, strict: true, strictTypes: false });
  addFormats.default(ajv);
  const validate = ajv.compile(schema);
  const check = (p: Plan) => {
    const ok = validate(JSON.parse(renderPlanJson(p)));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  };

  it.each([
    ['rich', richPlan],
    ['empty', emptyPlan],
    ['hostile', hostilePlan],
  ])('the %s plan validates against schemas/plan.schema.json', (_name, make) => check(make()));

  it('the schema rejects what a plan cannot be', () => {
    const doc = JSON.parse(renderPlanJson(richPlan()));
    doc.changes[0].action = 'replace';
    doc.changes[1].call.method = 'PATCH';
    delete doc.fingerprint;
    expect(validate(doc)).toBe(false);
    expect(validate.errors!.length).toBeGreaterThanOrEqual(3);
    const del = JSON.parse(renderPlanJson(richPlan()));
    const d = del.changes.find((c: { action: string }) => c.action === 'delete');
    d.after = { label: 'x' };
    expect(validate(del)).toBe(false);
  });

  it('round-trips to the same plan and is byte-stable', () => {
    const p = richPlan();
    const text = renderPlanJson(p);
    // Read back as apply --plan reads it: the effects that format 1 keeps in `note` apart again.
    expect(parseSavedPlan(text)).toEqual({ ok: true, plan: p, desired: null });
    const reordered = JSON.parse(JSON.stringify(p, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v)));
    expect(renderPlanJson(reordered)).toBe(text);
    const first = Object.keys(JSON.parse(text));
    expect(first.slice(0, 5)).toEqual(['format_version', 'changes', 'summary', 'unmanaged', 'fingerprint']);
    expect(Object.keys(JSON.parse(text).changes[0]).slice(0, 7)).toEqual(['action', 'kind', 'key', 'id', 'before', 'after', 'changed']);
  });
});

describe('group member diff of a member the same plan renames', () => {
  // The Markdown plan (PR comment) must say what apply does. A group update's details block diffed
  // member labels before (live labels) and after (desired labels), so a member that the same plan
  // renames showed up as removed and re-added although the PUT keeps it (same id); the summary row
  // and the text plan use the plan's member notes (by id) and were right.
  const a = liveMonitor({ id: '1', label: 'mx-a' });
  const c = liveMonitor({ id: '3', label: 'mx-c' });
  const live = liveState({ monitors: [a, c], groups: [liveGroup('g1', 'prod', [a])] });
  const desired = desiredState({
    monitors: [dMonitor('mx-b', {}, { previous_labels: ['mx-a'] }), dMonitor('mx-c')],
    groups: [dGroup('prod', ['mx-b', 'mx-c'])],
  });

  it('is not shown as removed and added in the Markdown plan', () => {
    const plan = diff(desired, live, { target: 'http://127.0.0.1:1' });
    const group = plan.changes.find((x) => x.kind === 'group')!;
    expect(group.note).toMatchObject({ members_added: ['mx-c'] });
    expect(group.note?.members_removed).toBeUndefined();

    const md = renderPlanMarkdown(plan);
    const details = md.slice(md.indexOf('group <code>prod</code>'));
    expect(details).toContain('+  "mx-c"');
    expect(details).not.toContain('-  "mx-a"');
    expect(details).not.toContain('+  "mx-b"');
  });

  it('is not shown as removed in the text plan', () => {
    const text = renderPlanText(diff(desired, live, { target: 'http://127.0.0.1:1' }), { color: false });
    const groupBlock = text.slice(text.indexOf('group "prod"'));
    expect(groupBlock.split('\n')[1]).toMatch(/^      monitors: \+ "mx-c" -> \[/);
  });

  it('shows the list of members the group becomes after what changes, in text and in Markdown, as alert destinations do', () => {
    const plan = diff(desired, live, { target: 'http://127.0.0.1:1' });
    const text = renderPlanText(plan, { color: false });
    expect(text.slice(text.indexOf('group "prod"')).split('\n')[1]).toBe('      monitors: + "mx-c" -> ["mx-b", "mx-c"]');
    const md = renderPlanMarkdown(plan);
    expect(md).toContain('| + <code>mx-c</code> → <code>&#91;mx-b, mx-c&#93;</code> |');
    expect(md.slice(md.indexOf('<details><summary>✏️ group <code>prod</code>'))).toContain(' monitors:\n+  "mx-c"\n # it becomes ["mx-b", "mx-c"]\n');
  });
});
