/**
 * The floor of `monsync report`, as its own process: the same GET requests the report made (a
 * file of paths with their queries, one a line, from the emulator's request log), at most
 * `--parallelism` at a time over keep-alive sockets, each body downloaded and `JSON.parse`d, and
 * nothing else: a bare Node client. Prints how many requests and data items it read.
 * Usage: node test/bench/report-floor.mjs <url> <paths-file> [--parallelism 8]
 *        (credentials from MONSYNC_USERNAME / MONSYNC_PASSWORD)
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { makeGetter } from './http-get.mjs';

const { values: args, positionals } = parseArgs({ options: { parallelism: { type: 'string', default: '8' } }, allowPositionals: true });
const [url, file] = positionals;
const paths = readFileSync(file, 'utf8').split('\n').filter(Boolean);
const limit = Number(args.parallelism);
const { get, close } = makeGetter(url, { user: process.env.MONSYNC_USERNAME, password: process.env.MONSYNC_PASSWORD, sockets: limit });
let next = 0;
let items = 0;
const worker = async () => {
  while (next < paths.length) {
    const body = JSON.parse((await get(paths[next++])).toString('utf8'));
    if (Array.isArray(body.data)) items += body.data.length;
  }
};
await Promise.all(Array.from({ length: Math.min(limit, paths.length) }, worker));
close();
process.stdout.write(`${JSON.stringify({ requests: paths.length, items })}\n`);
