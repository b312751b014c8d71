/** Date-time strings in the API's style: ISO 8601 without offset, in UTC or in a monitor's zone. */
const formatters = new Map<string, Intl.DateTimeFormat>();

export function utcIso(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

export function zonedIso(ms: number, timeZone: string | undefined): string {
  if (!timeZone) return utcIso(ms);
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
