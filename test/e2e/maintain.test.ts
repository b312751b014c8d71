/**
 * `monsync maintain`, the built CLI against the emulator (default seed) with its clock moved into a
 * window: --dry-run sends nothing, a run pauses, a second run sends nothing; a broken window is
 * reported at file:line:column, exit 1, no stack trace and no request at all.
 */
import { describe, expect, it } from 'vitest';
import { expectCleanOutput, runCli } from '../helpers/cli.js';
import type { TestEmulator } from '../helpers/emulator.js';
import { Workspace, e2eSuite, state, writes } from './support.js';

let emu: TestEmulator;
let ws: Workspace;

e2eSuite((e, w) => {
  emu = e;
  ws = w;
});

const cli = (args: string[]) => runCli(args, { url: emu.url, cwd: ws.dir });

describe('monsync maintain (built CLI)', () => {
  it('pauses what an open window covers once: a dry run and a second run send nothing', async () => {
    const monitor = (await state(emu)).monitors[0]!;
    const label = monitor.label;
    await emu.control.seed({
      alerts: ['is DOWN', 'is SLOW'].map((what) => ({
        type: 'up-down',
        monitor: monitor.id,
        subject_init: `${label} ${what}`,
        subject_term: `${label} is UP`,
        message_init: '',
        message_term: '',
        timeout: 15,
        alert_destinations: [],
        down_only: false,
        repeat: false,
      })),
    });
    await ws.write(
      'maint/monsync.yaml',
      ['version: 1', 'maintenance:', '  - name: reboot', `    monitors: [${JSON.stringify(label)}]`, '    start: "2026-12-01T02:00"', '    end: "2026-12-01T03:00"', '    time_zone: UTC', ''].join('\n'),
    );
    await emu.control.setClock(Date.parse('2026-12-01T02:30:00Z') / 1000);
    await emu.control.clearRequests();

    const dry = await cli(['maintain', 'maint/', '--dry-run']);
    expectCleanOutput(dry);
    expect(dry.code).toBe(0);
    // The emulator's clock runs on from 02:30:00 while the CLI starts.
    expect(dry.stdout).toMatch(/^Window "reboot" \(2026-12-01T02:00 to 2026-12-01T03:00, UTC\): open 2026-12-01 02:00 UTC to 2026-12-01 03:00 UTC, (30m|29m 5\ds) left\n/);
    expect(dry.stdout).toMatch(/Dry run: would pause 2 alerts; nothing was sent\.\n$/);
    expect(await writes(emu)).toEqual([]);

    const run = await cli(['maintain', 'maint/']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Sent 1 pause call \(2 alerts\)\.\n$/);
    expect((await writes(emu)).map((r) => r.path)).toEqual([expect.stringMatching(/^\/v1\/Pause\/Monitor\/\d+\/$/)]);

    await emu.control.clearRequests();
    const again = await cli(['maintain', 'maint/']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/Nothing to pause: every covered alert is paused until its window ends\.\n$/);
    expect(await writes(emu)).toEqual([]);
  });

  it('reports a broken window at file:line:column and sends nothing', async () => {
    await ws.write('broken/monsync.yaml', ['version: 1', 'maintenance:', '  - name: bad', '    monitors: [x]', '    cron: "0 2 * * 8"', '    duration: 2h', '    time_zone: UTC', ''].join('\n'));
    await emu.control.clearRequests();
    const r = await cli(['maintain', 'broken/']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/monsync\.yaml:5:11: .*cron "0 2 \* \* 8" is not valid/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(await emu.control.requests()).toEqual([]);
  });
});
