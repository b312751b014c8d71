/**
 * Minimal keep-alive GET over node:http for the comparison models (floor and one read per
 * resource): no retries, no normalising, nothing monsync does beyond the request itself.
 */
import http from 'node:http';

export function makeGetter(baseUrl, { user, password, sockets }) {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  /** Resolves to the raw body as a Buffer; rejects on a non-2xx status. */
  const get = (path) =>
    new Promise((resolve, reject) => {
      const req = http.request(
        { host: url.hostname, port: url.port, path, method: 'GET', agent, headers: { authorization, accept: 'application/json' } },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            if (res.statusCode < 200 || res.statusCode >= 300) reject(new Error(`GET ${path}: HTTP ${res.statusCode}`));
            else resolve(Buffer.concat(chunks));
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
  return { get, close: () => agent.destroy() };
}

export const LIST_PATHS = ['/v1/Config/Monitor/', '/v1/Config/Alert/', '/v1/Config/Group/', '/v1/Config/AlertDestination/'];
