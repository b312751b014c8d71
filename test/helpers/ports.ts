/** Loopback ports for tests. */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A port on 127.0.0.1 where nothing listens: bound on port 0, then released. */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
