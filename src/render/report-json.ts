/**
 * `monsync report --format json`: the report's versioned plain data (ops/report.ts `Report`), as
 * schemas/report.schema.json describes it. Pure.
 *
 * `reportJsonPieces` gives the same text in pieces, one per field of the report and one per
 * monitor, so that a large report is written without one string (and one buffer) of all of it: a
 * month of 1,000 monitors is about 8.6 MB of JSON, which the report's memory peaked on twice over.
 * `renderReportJson` is their concatenation, the text `JSON.stringify(..., null, 2)` gives.
 */
import type { Report } from '../ops/report.js';

export const REPORT_SCHEMA_ID = 'urn:monsync:schema:report:v1';

export function renderReportJson(r: Report): string {
  return [...reportJsonPieces(r)].join('');
}

/** `JSON.stringify(value, null, 2)` placed `depth` levels deep: every line after the first indented 2 spaces a level (string values hold no raw newline). */
function nested(value: unknown, depth: number): string | undefined {
  const text = JSON.stringify(value, null, 2) as string | undefined;
  return text === undefined ? undefined : text.replace(/\n/g, `\n${'  '.repeat(depth)}`);
}

/** The report's JSON text in pieces, in order; joined, exactly `JSON.stringify({ $schema, ...r }, null, 2)` and a newline. */
export function* reportJsonPieces(r: Report): Generator<string> {
  const doc: Record<string, unknown> = { $schema: REPORT_SCHEMA_ID, ...r };
  let first = true;
  yield '{';
  for (const [key, value] of Object.entries(doc)) {
    if (key === 'monitors' && Array.isArray(value) && value.length > 0) {
      yield `${first ? '' : ','}\n  ${JSON.stringify(key)}: [`;
      first = false;
      for (let i = 0; i < value.length; i++) yield `${i === 0 ? '' : ','}\n    ${nested(value[i], 2) ?? 'null'}`;
      yield '\n  ]';
      continue;
    }
    const text = nested(value, 1);
    if (text === undefined) continue;
    yield `${first ? '' : ','}\n  ${JSON.stringify(key)}: ${text}`;
    first = false;
  }
  yield first ? '}\n' : '\n}\n';
}
