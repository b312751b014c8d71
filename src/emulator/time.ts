/** Date-time strings in the API's style: ISO 8601 without offset, in UTC or in a monitor's zone. */
const formatters = new Map<string, Intl.DateTimeFormat>();

export function utcIso(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/**
 * Offsets per zone and quarter hour: every zone's transitions fall on a quarter hour, so within one
 * the offset is constant, and a month of raw data (thousands of items per monitor) asks Intl once per
 * quarter hour rather than once per item (a month of 1,000 monitors went from minutes to seconds).
 */
const QUARTER_MS = 15 * 60_000;
const offsets = new Map<string, Map<number, number>>();
const MAX_OFFSETS = 200_000;

export function zonedIso(ms: number, timeZone: string | undefined): string {
  if (!timeZone || timeZone === 'UTC' || timeZone === 'Etc/UTC') return utcIso(ms);
  let byQuarter = offsets.get(timeZone);
  if (!byQuarter) {
    byQuarter = new Map();
    offsets.set(timeZone, byQuarter);
  }
  const quarter = Math.floor(ms / QUARTER_MS);
  let offset = byQuarter.get(quarter);
  if (offset === undefined) {
    const start = quarter * QUARTER_MS;
    const text = zonedIsoSlow(start, timeZone);
    offset = Date.parse(`${text}Z`) - start;
    if (!Number.isFinite(offset)) return zonedIsoSlow(ms, timeZone);
    if (byQuarter.size >= MAX_OFFSETS) byQuarter.clear();
    byQuarter.set(quarter, offset);
  }
  return utcIso(ms + offset);
}

function zonedIsoSlow(ms: number, timeZone: string): string {
  let fmt = formatters.get(timeZone);
  if (!fmt) {
    try {
      fmt = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
    } catch {
      // Seeded monitors may carry a zone Intl does not know; UTC is the honest fallback.
      return utcIso(ms);
    }
    formatters.set(timeZone, fmt);
  }
  const parts: Record<string, string> = {};
  for (const p of fmt.formatToParts(new Date(ms))) parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}
