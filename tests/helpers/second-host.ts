// A second "host" on this machine for the multi-host drills (issue 29.3): a worker started through it
// runs in a network namespace of its own (its own loopback and one veth link to this host, nothing
// else), a mount namespace of its own in which the other workers' directories are covered by an
// empty tmpfs (its state, sandbox, scratch and spool dirs exist only there), and a UTS namespace with
// its own hostname, so its Temporal identity reads "<pid>@<name>". It reaches the Temporal server and
// the bucket only over the link, through TCP forwarders this process runs on the link's host end —
// what two machines on a network share. The installed software (repo, venv) stays visible read-only
// in effect, as the same image on two machines.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';

export interface SecondHost {
  name: string;
  /** This host's address as the second host sees it. */
  gateway: string;
  /** The command prefix that starts a program on the second host. */
  wrap(argv: string[]): string[];
  /** `env` with the Temporal address and the S3 endpoint rewritten to reach them over the link. */
  env(env: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

/** Why a second host cannot be made here (not root, no `ip`, no veth), or null when it can. */
export function secondHostUnavailable(): string | null {
  if (process.getuid?.() !== 0) return 'separate network namespaces need root (CAP_NET_ADMIN, CAP_SYS_ADMIN)';
  try {
    execFileSync('ip', ['-V'], { stdio: 'ignore' });
    execFileSync('nsenter', ['--version'], { stdio: 'ignore' });
    execFileSync('unshare', ['--version'], { stdio: 'ignore' });
  } catch {
    return 'iproute2 (ip), nsenter or unshare is missing';
  }
  return null;
}

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });

/** Netns and links left by a drill that died: named after their creator's pid, removed when it is gone. */
function sweepStale(): void {
  const names = execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' }).split('\n').map((l) => l.split(' ')[0]!).filter((n) => /^pvh\d+-/.test(n));
  for (const ns of names) {
    const pid = Number(/^pvh(\d+)-/.exec(ns)![1]);
    try {
      process.kill(pid, 0);
      continue;
    } catch {
      /* its creator is gone */
    }
    try {
      ip('netns', 'del', ns);
    } catch {
      /* already gone */
    }
  }
}

/** Forwards `gateway:port` to `127.0.0.1:port`, byte for byte. */
function forward(gateway: string, port: number): Promise<Server> {
  const server = createServer((inbound) => {
    const outbound = createConnection({ host: '127.0.0.1', port });
    open.add(inbound).add(outbound);
    inbound.once('close', () => open.delete(inbound));
    outbound.once('close', () => open.delete(outbound));
    inbound.pipe(outbound).pipe(inbound);
    const drop = () => {
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on('error', drop);
    outbound.on('error', drop);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, gateway, () => resolve(server));
  });
}

/** Every forwarded connection, destroyed at close (a killed worker's may linger). */
const open = new Set<Socket>();

const portOf = (address: string) => Number(address.split(':').pop());

/**
 * A second host called `name`, whose mount namespace covers `hidden` (the other workers' directories)
 * with an empty tmpfs; `ports` are the loopback ports it may reach (Temporal, the bucket).
 */
export async function openSecondHost(name: string, hidden: string[], ports: number[]): Promise<SecondHost> {
  sweepStale();
  const ns = `pvh${process.pid}-${name}`.slice(0, 15);
  const octet = 1 + ((process.pid + name.length * 37) % 250);
  const gateway = `10.213.${octet}.1`;
  const inside = `10.213.${octet}.2`;
  const [hostEnd, nsEnd] = [`pvh${octet}a`, `pvh${octet}b`];
  ip('netns', 'add', ns);
  try {
    ip('link', 'add', hostEnd, 'type', 'veth', 'peer', 'name', nsEnd);
    ip('link', 'set', nsEnd, 'netns', ns);
    ip('addr', 'add', `${gateway}/30`, 'dev', hostEnd);
    ip('link', 'set', hostEnd, 'up');
    ip('-n', ns, 'addr', 'add', `${inside}/30`, 'dev', nsEnd);
    ip('-n', ns, 'link', 'set', nsEnd, 'up');
    ip('-n', ns, 'link', 'set', 'lo', 'up');
  } catch (err) {
    ip('netns', 'del', ns);
    throw new Error(`could not link the second host ${name}: ${(err as { stderr?: Buffer }).stderr?.toString().trim() || (err as Error).message}`);
  }
  const servers = await Promise.all([...new Set(ports)].map((p) => forward(gateway, p)));
  for (const dir of hidden) mkdirSync(dir, { recursive: true });
  // Private propagation first, so the tmpfs mounts stay in this namespace; then the program's own hostname.
  const setUp = [
    ...hidden.map((d) => `mount -t tmpfs -o size=64g,mode=0755 physvec-${name} '${path.resolve(d).replaceAll("'", "'\\''")}'`),
    `hostname '${name}'`,
    'exec "$@"',
  ].join(' && ');
  return {
    name,
    gateway,
    wrap: (argv) => ['nsenter', `--net=/var/run/netns/${ns}`, '--', 'unshare', '--mount', '--uts', '--propagation', 'private', '--', '/bin/sh', '-c', setUp, `physvec-host-${name}`, ...argv],
    env: (env) => {
      const out = { ...env };
      if (out.TEMPORAL_ADDRESS) out.TEMPORAL_ADDRESS = `${gateway}:${portOf(out.TEMPORAL_ADDRESS)}`;
      if (out.AWS_ENDPOINT_URL_S3) out.AWS_ENDPOINT_URL_S3 = out.AWS_ENDPOINT_URL_S3.replace(/\/\/[^/:]+:(\d+)/, `//${gateway}:$1`);
      return out;
    },
    close: async () => {
      for (const s of open) s.destroy();
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
      try {
        ip('netns', 'del', ns);
      } catch {
        /* already gone */
      }
      try {
        ip('link', 'del', hostEnd);
      } catch {
        /* went with the netns */
      }
    },
  };
}
