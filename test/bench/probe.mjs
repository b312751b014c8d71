/**
 * Preloaded into the measured monsync process (`node --import ./test/bench/probe.mjs bin/monsync.js ...`):
 * at exit, writes the process's own CPU time and peak resident set size (getrusage) to the file
 * named by MONSYNC_BENCH_PROBE. Nothing else; the CLI runs unmodified.
 */
import { writeFileSync } from 'node:fs';

const out = process.env.MONSYNC_BENCH_PROBE;
if (out) {
  process.on('exit', (code) => {
    const r = process.resourceUsage();
    writeFileSync(
      out,
      JSON.stringify({ code, user_ms: r.userCPUTime / 1000, system_ms: r.systemCPUTime / 1000, max_rss_kb: r.maxRSS, uptime_ms: process.uptime() * 1000 }),
    );
  });
}
