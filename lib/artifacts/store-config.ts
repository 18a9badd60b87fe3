// Which backend the process-wide artifact store uses: PHYSVEC_ARTIFACTS_URL=s3://bucket/prefix, else
// the `artifacts` section of physvec.config.json, else the local directory <state>/artifacts. The
// bucket's endpoint, region and credentials follow the standard AWS environment (AWS_ENDPOINT_URL_S3,
// AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or AWS_PROFILE), so a worker
// is pointed at a bucket the way any AWS tool is.
import { readFileSync } from 'node:fs';
import { S3Client } from '@aws-sdk/client-s3';
import type { z } from 'zod';
import { BadInputError, badInputFromZod } from '../errors.js';
import { configPath } from '../config.js';
import { artifactsDir } from '../paths.js';
import { ArtifactsConfig, S3ArtifactsConfig } from '../../schemas/config.js';
import type { BlobBackend } from './blob-backend.js';
import { LocalBackend } from './local-backend.js';
import { S3Backend } from './s3-backend.js';

/** `s3://bucket/prefix` as the bucket section; a BadInputError naming `where` otherwise. */
function parseS3Url(url: string, where: string): S3ArtifactsConfig {
  const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(url.trim());
  if (!m) throw new BadInputError(`${where}: "${url}" is not an s3:// URL; expected s3://<bucket>/<prefix>, e.g. s3://physvec-artifacts/lab`);
  const parsed = S3ArtifactsConfig.safeParse({ bucket: m[1], prefix: m[2]!.replace(/\/+$/, '') });
  if (!parsed.success) throw new BadInputError(`${where}: "${url}": ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

/** The `name` section of the config file, validated (absent: `fallback`); an unreadable file is the config loader's to report. */
export function configSection<T>(file: string, name: string, schema: z.ZodType<T>, fallback: unknown): T {
  let raw: unknown;
  try {
    raw = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)[name];
  } catch {
    raw = undefined;
  }
  const parsed = schema.safeParse(raw ?? fallback);
  if (!parsed.success) throw badInputFromZod(parsed.error, `${file}: ${name}`);
  return parsed.data;
}

const artifactsSection = (file: string) => configSection(file, 'artifacts', ArtifactsConfig, {});

/** The bucket at `url` (s3://bucket/prefix), with the config file's endpoint, region and path style. */
export function bucketAt(url: string, where: string, file: string = configPath()): S3ArtifactsConfig {
  return { ...artifactsSection(file).s3, ...parseS3Url(url, where) };
}

/** The bucket the store uses, or undefined for the local directory. */
export function configuredBucket(env: NodeJS.ProcessEnv = process.env, file: string = configPath()): S3ArtifactsConfig | undefined {
  const url = env.PHYSVEC_ARTIFACTS_URL?.trim();
  if (url) return bucketAt(url, 'PHYSVEC_ARTIFACTS_URL', file);
  const section = artifactsSection(file);
  return section.backend === 's3' ? section.s3 : undefined;
}

/** A backend on `bucket`, spooling uploads under `localDir`. */
export function s3Backend(bucket: S3ArtifactsConfig, localDir: string, env: NodeJS.ProcessEnv = process.env): S3Backend {
  // The SDK warns on every process under Node 22 about its releases from 2027; physvec supports Node 20
  // (package.json engines) with the SDK versions it pins, and a CLI's stderr carries only its own lines.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const endpoint = bucket.endpoint ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL;
  const client = new S3Client({
    region: bucket.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1',
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle: bucket.forcePathStyle ?? endpoint !== undefined,
    // Keys in `env` (a test's, a sync's) are used as given; otherwise the SDK's chain (env, profile, SSO, instance role).
    ...(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) } }
      : {}),
    // Checksums only where S3 requires them: many S3-compatible servers reject the newer default trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A store that does not answer is told within seconds (then retried by the activity), not after minutes.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 120_000 },
    maxAttempts: 3,
  });
  return new S3Backend({ client, bucket: bucket.bucket, prefix: bucket.prefix, endpoint: endpoint ?? 'AWS S3', localDir });
}

/** The backend of the process-wide store (lib/artifacts/store.ts artifactStore()). */
export function configuredBackend(): BlobBackend {
  const bucket = configuredBucket();
  return bucket ? s3Backend(bucket, artifactsDir()) : new LocalBackend(artifactsDir());
}
