/**
 * Preloaded into the measured monsync process (`node --import ./test/bench/probe.mjs bin/monsync.js ...`):
 * at exit, writes the process's own CPU time and peak resident set size (getrusage) to the file
 * named by MONSYNC_BENCH_PROBE. Nothing else; the CLI runs unmodified.
 *
 * On Linux it adds the CPU time of the main thread (`main_thread_ms`, from /proc/self/task/<pid>/stat):
 * the rest of the process's CPU is V8's and libuv's threads (optimising compiles, garbage collection,
 * file reads), which a CPU profile of the main thread does not show. That is how the report's 280 ms
 * of TurboFan recompiles were found.
 */
import { readFileSync, writeFileSync } from 'node:fs';

/** utime + stime of the main thread in ms, or null where /proc is not there to read. */
function mainThreadMs() {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the command name (in parentheses, may hold spaces); utime and stime are the 14th and
    // 15th, in clock ticks of USER_HZ, 100 a second on Linux.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

const out = process.env.MONSYNC_BENCH_PROBE;
if (out) {
  process.on('exit', (code) => {
    const r = process.resourceUsage();
    writeFileSync(
      out,
      JSON.stringify({
        code,
        user_ms: r.userCPUTime / 1000,
        system_ms: r.systemCPUTime / 1000,
        main_thread_ms: mainThreadMs(),
        max_rss_kb: r.maxRSS,
        uptime_ms: process.uptime() * 1000,
      }),
    );
  });
}
