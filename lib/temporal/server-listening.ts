// Whether anything accepts connections at a Temporal address — told apart from whether the server
// answers. The kernel completes a TCP handshake into the listen backlog even while the server process
// waits for a CPU, so on a starved host (load 40 on 2 cores: the dev server waited up to 116 s for a
// CPU in a 5 s window, scripts/drill-load.ts) "accepts but does not answer yet" means a busy server,
// not a missing one; "refused" or no route means nothing to wait for.
import net from 'node:net';

export type Listening = { listening: true } | { listening: false; why: string };

/** host and port of `host:port` / `[v6]:port` (port 7233 when absent). */
export function hostPort(address: string): { host: string; port: number } {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(address);
  if (v6) return { host: v6[1]!, port: Number(v6[2] ?? 7233) };
  const i = address.lastIndexOf(':');
  return i > 0 ? { host: address.slice(0, i), port: Number(address.slice(i + 1)) } : { host: address, port: 7233 };
}

export function tcpListening(address: string, timeoutMs: number): Promise<Listening> {
  const { host, port } = hostPort(address);
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (r: Listening) => {
      socket.destroy();
      resolve(r);
    };
    socket.setTimeout(timeoutMs, () => done({ listening: false, why: `no TCP answer within ${Math.round(timeoutMs / 1000)} s` }));
    socket.once('connect', () => done({ listening: true }));
    socket.once('error', (err: NodeJS.ErrnoException) => done({ listening: false, why: err.code ?? err.message }));
  });
}
