/**
 * The model most sync tools use, as its own process: one read per managed resource (GET by id,
 * the ids known from a state file), `parallelism` reads in flight, each body parsed as JSON.
 * Usage: node test/bench/per-resource.mjs <url> <ids.json> <parallelism>
 *   ids.json: {"paths": ["/v1/Config/Monitor/123/", ...]}
 */
import { readFileSync } from 'node:fs';
import { makeGetter } from './http-get.mjs';

const [url, idsFile, p] = process.argv.slice(2);
const parallelism = Number(p);
const { paths } = JSON.parse(readFileSync(idsFile, 'utf8'));
const { get, close } = makeGetter(url, {
  user: process.env.MONSYNC_USERNAME,
  password: process.env.MONSYNC_PASSWORD,
  sockets: parallelism,
});
let next = 0;
let objects = 0;
async function worker() {
  while (next < paths.length) {
    const path = paths[next++];
    const body = JSON.parse((await get(path)).toString('utf8'));
    if (body.error) throw new Error(`GET ${path}: ${body.error}`);
    objects++;
  }
}
await Promise.all(Array.from({ length: parallelism }, worker));
close();
process.stdout.write(`${JSON.stringify({ reads: objects })}\n`);
