/**
 * Scrapes of an exporter taken at chosen times (the emulator's clock), made into the one
 * OpenMetrics file `promtool tsdb create-blocks-from openmetrics` backfills a TSDB from: each
 * metric family once (its HELP, TYPE, UNIT lines from the first scrape holding it), then every
 * sample of it from every scrape with that scrape's timestamp, scrapes in time order (so each
 * series is in time order, as the block writer needs), and `# EOF`. Sample lines are kept as the
 * exporter wrote them (prom-client's escaping), the timestamp appended: nothing is re-rendered.
 */

export interface TimedScrape {
  /** Unix seconds the scrape's values were true at. */
  atSeconds: number;
  /** The exposition, OpenMetrics 1.0 (ending in `# EOF`). */
  body: string;
}

export function mergeScrapes(scrapes: readonly TimedScrape[]): string {
  const ordered = [...scrapes].sort((a, b) => a.atSeconds - b.atSeconds);
  for (let i = 1; i < ordered.length; i++) {
    if (ordered[i]!.atSeconds === ordered[i - 1]!.atSeconds) throw new Error(`two scrapes at ${ordered[i]!.atSeconds}: a series would have two samples at one time`);
  }
  const families = new Map<string, { meta: string[]; samples: string[] }>();
  for (const { atSeconds, body } of ordered) {
    let current: { meta: string[]; samples: string[] } | null = null;
    let fresh = false;
    for (const line of body.split('\n')) {
      if (line === '' || line === '# EOF') continue;
      const meta = /^# (HELP|TYPE|UNIT) (\S+)/.exec(line);
      if (meta) {
        const name = meta[2]!;
        const known = families.get(name);
        if (!known) {
          current = { meta: [], samples: [] };
          families.set(name, current);
          fresh = true;
        } else if (current !== known) {
          current = known;
          fresh = false;
        }
        if (fresh) current.meta.push(line);
        continue;
      }
      if (line.startsWith('#')) throw new Error(`an OpenMetrics line this merge does not know: ${line}`);
      if (!current) throw new Error(`a sample before any TYPE: ${line}`);
      current.samples.push(`${line} ${atSeconds}`);
    }
  }
  const out: string[] = [];
  for (const f of families.values()) out.push(...f.meta, ...f.samples);
  out.push('# EOF', '');
  return out.join('\n');
}

/** The samples of one exposition as {name, labels, value} (label values unescaped). */
export function parseSamples(body: string): { name: string; labels: Record<string, string>; value: number }[] {
  const out: { name: string; labels: Record<string, string>; value: number }[] = [];
  for (const line of body.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}
