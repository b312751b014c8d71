/**
 * The floor of a plan, as its own process: fetch the four list endpoints a plan reads, in
 * parallel, and read the bodies to the end. No parsing, no processing. Prints the bytes read.
 * Usage: node test/bench/floor.mjs <url>   (credentials from MONSYNC_USERNAME / MONSYNC_PASSWORD)
 */
import { LIST_PATHS, makeGetter } from './http-get.mjs';

const { get, close } = makeGetter(process.argv[2], {
  user: process.env.MONSYNC_USERNAME,
  password: process.env.MONSYNC_PASSWORD,
  sockets: LIST_PATHS.length,
});
const bodies = await Promise.all(LIST_PATHS.map(get));
close();
process.stdout.write(`${JSON.stringify({ bytes: bodies.reduce((n, b) => n + b.length, 0) })}\n`);
