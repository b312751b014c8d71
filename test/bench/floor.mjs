/**
 * The floor of a plan, as its own process: fetch the four list endpoints a plan reads, in
 * parallel, and read the bodies to the end. No parsing, no processing. Prints the bytes read.
 * With --parse, each body is also decoded and JSON.parse'd as it arrives: a reference for how much
 * of a plan's time over the floor is only turning the bytes into objects.
 * Usage: node test/bench/floor.mjs <url> [--parse]   (credentials from MONSYNC_USERNAME / MONSYNC_PASSWORD)
 */
import { LIST_PATHS, makeGetter } from './http-get.mjs';

const { get, close } = makeGetter(process.argv[2], {
  user: process.env.MONSYNC_USERNAME,
  password: process.env.MONSYNC_PASSWORD,
  sockets: LIST_PATHS.length,
});
const parse = process.argv.includes('--parse');
let items = 0;
const bodies = await Promise.all(
  LIST_PATHS.map((p) =>
    get(p).then((body) => {
      if (parse) {
        for (const v of Object.values(JSON.parse(body.toString('utf8')))) if (Array.isArray(v)) items += v.length;
      }
      return body;
    }),
  ),
);
close();
process.stdout.write(`${JSON.stringify({ bytes: bodies.reduce((n, b) => n + b.length, 0), ...(parse ? { items } : {}) })}\n`);
