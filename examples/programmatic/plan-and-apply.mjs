// monsync used from code: the desired state is built from an inventory of mail servers
// (inventory.csv: host, region, owner team), planned against the bundled emulator, printed, and
// applied; a second plan then shows the account matches. Run it after `npm ci`:
//
//   node examples/programmatic/plan-and-apply.mjs
//
// Against a real account, connect() without arguments reads MONSYNC_URL and the credentials from
// the environment instead of an emulator's; review the plan before executing it.
import { readFile } from 'node:fs/promises';
import {
  connect,
  diff,
  executePlan,
  formatDiagnostics,
  loadConfig,
  PlanError,
  readAccount,
  renderPlanText,
  startEmulator,
} from 'monsync';

const TIME_ZONES = { eu: 'Europe/London', us: 'America/New_York', ap: 'Asia/Singapore' };
/** Alert destinations (labels in the account) of each owner team. */
const TEAM_DESTINATIONS = { 'mail-ops': ['ops-mail'], platform: ['ops-mail', 'oncall-sms'] };

/** A header line, then one server per line; fields hold no commas or quotes. */
function parseCsv(text) {
  const [header, ...rows] = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  const names = header.split(',').map((name) => name.trim());
  return rows.map((row) => Object.fromEntries(row.split(',').map((value, i) => [names[i], value.trim()])));
}

/** The configuration, as a YAML or JSON file would hold it: a monitor per server, a group per region and per team. */
function configOf(servers) {
  const groups = new Map();
  const join = (name, label) => groups.set(name, [...(groups.get(name) ?? []), label]);
  const monitors = servers.map(({ host, region, team }) => {
    join(`region-${region}`, host);
    join(`team-${team}`, host);
    return {
      label: host,
      ip_address: host,
      time_zone: TIME_ZONES[region] ?? 'UTC',
      meta: { region, team },
      alerts: [
        {
          subject_init: `${host} is DOWN`,
          subject_term: `${host} is UP`,
          alert_destinations: TEAM_DESTINATIONS[team] ?? ['ops-mail'],
        },
      ],
    };
  });
  return {
    version: 1,
    settings: { owner: 'inventory' },
    defaults: { monitor: { test_account: 'probe@example.com', timer: 5 }, alert: { timeout: 15 } },
    monitors,
    groups: [...groups].map(([name, members]) => ({ name, monitors: members })),
  };
}

const inventory = parseCsv(await readFile(new URL('inventory.csv', import.meta.url), 'utf8'));
// Checked as a file would be; problems are values, named with lines of JSON.stringify(config, null, 2).
const loaded = await loadConfig([{ name: 'inventory.json', data: configOf(inventory) }]);
if ('diagnostics' in loaded) {
  process.stderr.write(formatDiagnostics(loaded.diagnostics));
  process.exit(1);
}
const desired = loaded.state;

const emulator = await startEmulator();
const client = connect({ url: emulator.url, ...emulator.credentials });
try {
  const plan = diff(desired, await readAccount(client, desired), { target: client.baseUrl });
  process.stdout.write(renderPlanText(plan, { color: false }));

  const result = await executePlan(plan, client);
  console.log(`\nApplied: ${result.done} done, ${result.failed} failed, ${result.skipped} skipped.`);
  for (const r of result.results.filter((r) => r.status !== 'done')) console.log(`  ${r.kind} "${r.key}": ${r.error ?? r.reason}`);

  const again = diff(desired, await readAccount(client, desired), { target: client.baseUrl });
  console.log(again.changes.length === 0 ? 'No changes: the account matches the inventory.' : renderPlanText(again, { color: false }));
  if (result.failed > 0 || again.changes.length > 0) process.exitCode = 1;
} catch (err) {
  // The configuration cannot be planned against this account (a typed error listing every problem).
  if (!(err instanceof PlanError)) throw err;
  console.error(err.message);
  for (const problem of err.problems) console.error(`  - ${problem}`);
  process.exitCode = 1;
} finally {
  await client.close();
  await emulator.close();
}
