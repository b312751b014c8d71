/**
 * A TCP proxy in front of the emulator that plays a link of limited bandwidth, for the bench's
 * network profile (issue 20): what a user on a 50 Mbit/s line sees, beside the loopback figures.
 *
 * One link for all connections, like a user's line: every chunk the emulator sends waits for the
 * bytes before it (of any connection) to go through, then for its own length at `bitsPerSecond`.
 * Requests travel unthrottled (a few hundred bytes each). Latency stays the emulator's own fault
 * (`POST /_emulator/faults {latency_ms}`), so both are set and measured the same way for monsync
 * and for the reference processes.
 */
import net from 'node:net';

const sleepUntil = (due) => new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));

/** Starts the proxy on 127.0.0.1, an ephemeral port; resolves to its URL and a close function. */
export async function startThrottle(targetUrl, bitsPerSecond) {
  const target = new URL(targetUrl);
  // When the link is next free, in performance.now() milliseconds.
  let linkFreeAt = 0;
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client);
    sockets.add(upstream);
    // Each connection's chunks in order, each when the link has carried it.
    let chain = Promise.resolve();
    const fail = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', fail);
    upstream.on('error', fail);
    client.on('close', () => {
      sockets.delete(client);
      upstream.destroy();
    });
    upstream.on('close', () => sockets.delete(upstream));
    client.pipe(upstream);
    upstream.on('data', (chunk) => {
      linkFreeAt = Math.max(performance.now(), linkFreeAt) + (chunk.length * 8 * 1000) / bitsPerSecond;
      const due = linkFreeAt;
      chain = chain.then(() => sleepUntil(due)).then(() => client.writable && client.write(chunk));
    });
    upstream.on('end', () => {
      chain = chain.then(() => client.end());
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
