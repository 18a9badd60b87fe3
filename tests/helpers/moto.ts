// A real S3-compatible server on loopback for the tests: moto_server from .venv-moto (pinned in
// requirements-moto.txt), on a free port, with one bucket created. Any access key is accepted.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { existsSync } from 'node:fs';
import { repoRoot, venvDir } from '../../lib/paths.js';
import { waitFor } from './poll.js';

export interface Moto {
  endpoint: string;
  bucket: string;
  /** The environment a worker needs to use the bucket (PHYSVEC_ARTIFACTS_URL and AWS credentials). */
  env(prefix: string): Record<string, string>;
  client(): S3Client;
  stop(): Promise<void>;
}

export const MOTO_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'physvec-test', AWS_SECRET_ACCESS_KEY: 'physvec-test-secret', AWS_REGION: 'us-east-1' };

/** .venv-moto's moto_server (scripts/install-lint-tools.sh), else one installed in the project venv by hand. */
function motoServer(): string {
  const own = path.join(repoRoot, '.venv-moto', 'bin', 'moto_server');
  return existsSync(own) ? own : path.join(venvDir, 'bin', 'moto_server');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** moto_server on a free loopback port with `bucket` created; stop() ends it. */
export async function startMoto(bucket = 'physvec-test'): Promise<Moto> {
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const proc = spawn(motoServer(), ['-H', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-4000)));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const client = () => new S3Client({ endpoint, region: MOTO_CREDENTIALS.AWS_REGION, forcePathStyle: true, credentials: { accessKeyId: MOTO_CREDENTIALS.AWS_ACCESS_KEY_ID, secretAccessKey: MOTO_CREDENTIALS.AWS_SECRET_ACCESS_KEY } });
  await waitFor(`moto_server on ${endpoint} (${stderr.trim().split('\n').pop() ?? ''})`, async () => {
    if (proc.exitCode !== null) throw new Error(`moto_server exited (${proc.exitCode}): ${stderr}`);
    return fetch(`${endpoint}/moto-api/`).then((r) => (r.status < 500 ? true : undefined), () => undefined);
  }, 60_000, 100);
  await client().send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    endpoint,
    bucket,
    env: (prefix) => ({ ...MOTO_CREDENTIALS, PHYSVEC_ARTIFACTS_URL: `s3://${bucket}/${prefix}`, AWS_ENDPOINT_URL_S3: endpoint }),
    client,
    stop: async () => {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
}
