/**
 * Bad JSON configuration files, in the manner of the bad corpus (bad-corpus.test.ts): each case is
 * a small file and exactly the diagnostics the loader must report for it (JSON has no comments to
 * hold them, so they are listed here). What is not JSON is refused in JSON's terms, even where the
 * yaml library would read it; mistakes of content are reported as for YAML, at their place.
 */
import { describe, expect, it } from 'vitest';
import { brief, diagnosticsOf, loadFiles } from './helpers.js';

const MONITOR = '"label": "mx-1", "ip_address": "mx.example.com", "test_account": "p@example.com", "time_zone": "Europe/London", "timer": 5';

/** [name, text, expected "line:column: message" lines] */
const CASES: [string, string, string[]][] = [
  // Not JSON: syntax, with the first error only (a reader cannot know what was meant after it).
  ['trailing comma in an object', '{\n  "version": 1,\n}\n', ['2:15: trailing comma: JSON allows no "," before "}"']],
  ['trailing comma in a list', '{"version": 1, "groups": [{"name": "a"},\n]}', ['1:40: trailing comma: JSON allows no "," before "]"']],
  ['a # comment', '{\n  "version": 1  # the format\n}', ['2:17: comments are not JSON; to keep comments, write the configuration as YAML (a .yaml file)']],
  ['a // comment', '// generated\n{"version": 1}', ['1:1: comments are not JSON; to keep comments, write the configuration as YAML (a .yaml file)']],
  ['a /* comment */ before a key', '{/* v */ "version": 1}', ['1:2: comments are not JSON; to keep comments, write the configuration as YAML (a .yaml file)']],
  ['single-quoted key', "{'version': 1}", ['1:2: JSON strings are in double quotes, not single quotes']],
  ['single-quoted value', '{"version": 1, "settings": {"owner": \'me\'}}', ['1:38: JSON strings are in double quotes, not single quotes']],
  ['unquoted key', '{\n  version: 1\n}', ['2:3: property names in JSON are in double quotes: write "version"']],
  ['missing comma between properties', '{\n  "version": 1\n  "monitors": []\n}', ['3:3: expected "," or "}" after the value of "version", found the string "monitors"']],
  ['missing comma between list items', '{"version": 1, "groups": [{"name": "a"} {"name": "b"}]}', ['1:41: expected "," or "]" after a list item, found "{"']],
  ['missing colon', '{"version" 1}', ['1:12: expected ":" after the property name "version", found the number 1']],
  ['a YAML-style key: value', '{"version": 1, "settings": {"owner" = "me"}}', ['1:37: expected ":" after the property name "owner", found "="']],
  ['True instead of true', '{"version": 1, "settings": {"prune": True}}', ['1:38: True is not JSON: write true']],
  ['a bare word', '{"version": 1, "settings": {"owner": mail-team}}', ['1:38: expected a value, found mail-team (JSON strings are in double quotes; its other words are true, false and null)']],
  ['NaN', '{"version": NaN}', ['1:13: expected a value, found NaN (JSON strings are in double quotes; its other words are true, false and null)']],
  ['a leading zero', '{"version": 01}', ['1:13: invalid number 01: JSON numbers have no leading zeros']],
  ['a plus sign', '{"version": +1}', ['1:13: invalid number +1: JSON numbers have no "+" sign']],
  ['a fraction without digits', '{"version": 1.}', ['1:13: invalid number 1. (JSON numbers are written like 25, -1, 2.5 or 1e3)']],
  ['hexadecimal', '{"version": 0x1}', ['1:13: invalid number 0x1 (JSON numbers are written like 25, -1, 2.5 or 1e3)']],
  ['a YAML escape', '{"version": 1, "settings": {"owner": "a\\x41"}}', ['1:40: invalid escape \\x in a string (JSON has \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\u followed by 4 hex digits)']],
  ['a short \\u escape', '{"version": 1, "settings": {"owner": "\\u12"}}', ['1:39: invalid escape \\u12 in a string (JSON has \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\u followed by 4 hex digits)']],
  ['a backslash at the end of a line', '{"version": 1, "settings": {"owner": "a\\\n"}}', ['1:38: this string is not closed on its line: a JSON string ends with " before the line ends (write \\n for a line break)']],
  ['a raw tab in a string', '{"version": 1, "settings": {"owner": "a\tb"}}', ['1:40: tab character inside a string: JSON writes it as \\t']],
  ['a raw control character in a string', '{"version": 1, "settings": {"owner": "a\u0001b"}}', ['1:40: control character U+0001 inside a string: JSON writes it as \\u0001']],
  ['a string running over its line', '{\n  "version": 1,\n  "settings": {"owner": "me\n  }\n}', ['3:25: this string is not closed on its line: a JSON string ends with " before the line ends (write \\n for a line break)']],
  ['an object not closed', '{\n  "version": 1,\n  "settings": {"owner": "me"}\n', ['4:1: the file ends before the object that starts at line 1, column 1 is closed with "}"']],
  ['a list not closed', '{"version": 1, "groups": [{"name": "a"}', ['1:40: the file ends before the list that starts at line 1, column 26 is closed with "]"']],
  ['a value missing at the end', '{"version": ', ['1:13: the file ends before the object that starts at line 1, column 1 is closed with "}"']],
  ['a bracket for a brace', '{"version": 1]', ['1:14: expected "," or "}" after the value of "version", found "]"']],
  ['a value missing', '{"version": , "groups": []}', ['1:13: expected a value, found ","']],
  ['a comma first', '{, "version": 1}', ['1:2: expected a property name in double quotes, found ","']],
  ['two objects', '{"version": 1}\n{"groups": []}\n', ['2:1: unexpected "{" after the end of the JSON value: a JSON file holds one value']],
  ['a comment after the object', '{"version": 1}\n# end\n', ['2:1: comments are not JSON; to keep comments, write the configuration as YAML (a .yaml file)']],
  ['YAML in a .json file', 'version: 1\nmonitors: []\n', ['1:1: expected a value, found version (JSON strings are in double quotes; its other words are true, false and null)']],
  ['a lone CR counts as a line break', '{\r  "version": 1,\r  "x": ,\r}', ['3:8: expected a value, found ","']],
  ['CRLF line ends', '{\r\n  "version": 1,\r\n  "x": ,\r\n}', ['3:8: expected a value, found ","']],
  ['columns count UTF-16 units, as editors do', '{"version": 1, "settings": {"owner": "\u{1F600}\u00e9", "prune": yes}}', ['1:54: expected a value, found yes (JSON strings are in double quotes; its other words are true, false and null)']],

  // Valid JSON, wrong content: the full path's diagnostics, at their places in the JSON text.
  ['duplicate key', '{\n  "version": 1,\n  "version": 1\n}', ['3:3: duplicate key "version": it is already defined at line 2, column 3']],
  ['duplicate key in a monitor', `{"version": 1, "monitors": [{${MONITOR}, "timer": 10}]}`, ['1:154: duplicate key "timer": it is already defined at line 1, column 142']],
  ['a reserved key', '{"version": 1, "__proto__": {}}', ['1:16: key "__proto__" is not allowed (it is reserved by JavaScript objects)']],
  ['a timer not allowed', `{\n  "version": 1,\n  "monitors": [\n    {${MONITOR.replace('"timer": 5', '"timer": 7')}}\n  ]\n}`, ['4:127: timer must be one of 3, 5, 10, 15, 20, 30 minutes (got the number 7)']],
  ['a key typo', '{"version": 1, "groups": [{"nme": "g"}]}', ['1:27: group is missing required key "name"', '1:28: unknown key "nme" in group; did you mean "name"?']],
  ['a top level that is a list', '[{"version": 1}]', ['1:1: the top level must be a mapping with keys such as version, monitors and groups, not a list']],
  ['a saved plan in a configuration directory', '{"format_version": 1, "changes": []}', ['1:1: this is a plan saved by `monsync plan --out`, not a configuration file: apply it with `monsync apply --plan bad.json`; keep saved plans out of the directories given as configuration']],
  ['no version', '{}', ['1:1: missing "version: 1": every configuration file starts with the format version']],
  ['an unset variable', '{"version": 1, "settings": {"owner": "team-${TEAM}"}}', ['1:44: environment variable TEAM is not set (use ${TEAM:-default} to give a default)']],
  ['a variable is a string in JSON, never a number', `{"version": 1, "monitors": [{${MONITOR}, "port": "\${PORT}"}]}`, ['1:162: port must be a whole number (got the text "25"); remove the quotes']],
];

describe('bad JSON configuration files', () => {
  it.each(CASES)('%s', async (_name, text, expected) => {
    const result = await loadFiles({ 'bad.json': text }, { env: { PORT: '25' } });
    const got = diagnosticsOf(result).map(brief).map((d) => `${d.line}:${d.column}: ${d.message}`);
    expect(got).toEqual(expected);
    expect(diagnosticsOf(result).every((d) => d.file === 'bad.json')).toBe(true);
  });

  it('the full path finds the same problems (MONSYNC_CONFIG_FULL_PATH changes nothing for JSON)', async () => {
    for (const [, text, expected] of CASES) {
      const dir = await loadFiles({ 'bad.json': text }, { env: { PORT: '25' } });
      const { loadConfig } = await import('../../src/config/index.js');
      const full = await loadConfig(['bad.json'], { cwd: dir.dir, env: { PORT: '25' }, fullPath: true });
      expect(diagnosticsOf(full).map((d) => `${d.line}:${d.column}: ${d.message}`), text).toEqual(expected);
    }
  });
});
