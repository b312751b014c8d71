/**
 * Labels and names that look the same but are not (issue 23, item 5): a declared identity (monitor
 * label, group name, alert subject_init) with surrounding whitespace of any kind, NBSP and U+3000
 * included, is refused at its position; a previous label may keep it (that is how a live monitor
 * labelled so is renamed).
 */
import { describe, expect, it } from 'vitest';
import { brief, diagnosticsOf, loadFiles, monitorYaml, stateOf } from './helpers.js';

const j = JSON.stringify;

describe('surrounding whitespace in a declared identity', () => {
  it.each([
    ['a trailing space', 'mx-1 ', '"mx-1 "'],
    ['a leading tab', '\tmx-1', '"\\tmx-1"'],
    ['a trailing no-break space', 'mx-1\u00a0', '"mx-1\\u00a0"'],
    ['a leading ideographic space', '\u3000mx-1', '"\\u3000mx-1"'],
    ['a trailing zero-width space', 'mx-1\u200b', '"mx-1\\u200b"'],
  ])('a monitor label with %s is refused, naming the character', async (_what, label, shown) => {
    const d = diagnosticsOf(await loadFiles({ 'monsync.yaml': `version: 1\nmonitors:\n${monitorYaml(j(label))}` })).map(brief);
    expect(d).toEqual([
      {
        file: 'monsync.yaml',
        line: 3,
        column: 12,
        message: `monitor label ${shown} starts or ends with whitespace: labels are matched exactly, so it would not name the monitor it looks like; remove it (to rename a live monitor labelled so, put that label in previous_labels)`,
      },
    ]);
  });

  it('a group name and an alert subject_init are refused the same way; previous_labels may hold such a label', async () => {
    const text = [
      'version: 1',
      'monitors:',
      monitorYaml('mx-1', `    previous_labels: [${j('mx-1\u00a0')}]\n    alerts:\n      - subject_init: ${j(' mx-1 down')}\n        subject_term: up\n        timeout: 10\n        alert_destinations: [ops]\n`).trimEnd(),
      'groups:',
      `  - name: ${j('prod\u3000')}`,
      '    monitors: [mx-1]',
      '',
    ].join('\n');
    const d = diagnosticsOf(await loadFiles({ 'monsync.yaml': text })).map((x) => `${x.line}:${x.column}: ${x.message.split(':')[0]}`);
    expect(d).toEqual(['10:23: alert subject_init " mx-1 down" starts or ends with whitespace', '15:11: group name "prod\\u3000" starts or ends with whitespace']);
    const ok = stateOf(await loadFiles({ 'monsync.yaml': `version: 1\nmonitors:\n${monitorYaml('mx-1', `    previous_labels: [${j('mx-1\u00a0')}]\n`)}` }));
    expect(ok.monitors[0]!.previous_labels).toEqual(['mx-1\u00a0']);
  });
});
