// A TCP port on loopback that nothing listens on right now (for throw-away servers in tests and
// benchmarks), through get-port, which also holds back a port it just handed out for a while so two
// servers started back to back do not get the same one.
import getPort from 'get-port';

export function freePort(): Promise<number> {
  return getPort({ host: '127.0.0.1' });
}
