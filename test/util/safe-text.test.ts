import { describe, expect, it } from 'vitest';
import { escapeControl, terminalSafe } from '../../src/util/safe-text.js';

describe('terminalSafe: every line monsync prints', () => {
  it('escapes bidi overrides and isolates, C1 controls, line and paragraph separators, and ESC, as escapeControl does', () => {
    const hostile = 'a\u202eb\u009b31mc\u2028d\u2029e\u2066f\u001b[2Kg\u061ch\u2060i';
    expect(terminalSafe(hostile)).toBe('a\\u202eb\\u009b31mc\\u2028d\\u2029e\\u2066f\\u001b[2Kg\\u061ch\\u2060i');
    expect(terminalSafe(hostile)).toBe(escapeControl(hostile));
  });

  it("keeps monsync's own drawing sequences on a terminal, and nothing that moves the cursor elsewhere", () => {
    const own = '\r\u001b[2K  + monitor "x" \u001b[32mcreated\u001b[39m\r\n\u001b[?25l\u001b[1G';
    expect(terminalSafe(own, { sequences: true })).toBe(own);
    expect(terminalSafe(own)).not.toContain('\u001b');
    // Cursor up, a lone carriage return (overwrites the start of a line), a C1 CSI: escaped even on a terminal.
    expect(terminalSafe('x\u001b[1Ay\rz\u009b2J', { sequences: true })).toBe('x\\u001b[1Ay\\u000dz\\u009b2J');
  });

  it('leaves tab and newline, and ordinary non-ASCII text, as they are', () => {
    expect(terminalSafe('café\tnaïve\n日本 — ok')).toBe('café\tnaïve\n日本 — ok');
  });
});
