/**
 * `monsync report --format json`: the report's versioned plain data (ops/report.ts `Report`), as
 * schemas/report.schema.json describes it. Pure.
 */
import type { Report } from '../ops/report.js';

export const REPORT_SCHEMA_ID = 'urn:monsync:schema:report:v1';

export function renderReportJson(r: Report): string {
  return `${JSON.stringify({ $schema: REPORT_SCHEMA_ID, ...r }, null, 2)}\n`;
}
