/**
 * A report in the format `monsync report --format` asks for. Pure; only that format's renderer is
 * loaded.
 */
import type { Report } from '../ops/report.js';

export type ReportFormat = 'text' | 'markdown' | 'csv' | 'json' | 'html';

/**
 * The report in `format`, in pieces (JSON: a piece per monitor, see reportJsonPieces; the others
 * one piece); only that format's renderer is loaded (the four others are about 20 ms of CPU to load).
 */
export async function renderReportIn(r: Report, format: ReportFormat, opts: { color: boolean; outages: boolean }): Promise<Iterable<string>> {
  switch (format) {
    case 'text':
      return [(await import('./report-text.js')).renderReportText(r, opts)];
    case 'markdown':
      return [(await import('./report-markdown.js')).renderReportMarkdown(r, opts)];
    case 'csv':
      return [(await import('./report-csv.js')).renderReportCsv(r, opts)];
    case 'json':
      return (await import('./report-json.js')).reportJsonPieces(r);
    case 'html':
      return [(await import('./report-html.js')).renderReportHtml(r, opts)];
  }
}
