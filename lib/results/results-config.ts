// Which results store a process uses. PHYSVEC_RESULTS_URL (s3://bucket/prefix, or `sqlite` /
// `sqlite:<file>`), else the `results` section of physvec.config.json, else: when the artifact store
// is a bucket, the same bucket under <its prefix>/results — the one thing every worker of a cluster
// already shares — and otherwise SQLite in the state directory. So pointing workers at a bucket is
// enough for their results to be readable from any host; a cluster never puts SQLite on a shared disk.
import { artifactsDir } from '../paths.js';
import { configPath } from '../config.js';
import { BadInputError } from '../errors.js';
import { bucketAt, configSection, configuredBucket, s3Backend } from '../artifacts/store-config.js';
import { joinKey } from '../artifacts/blob-backend.js';
import { ResultsConfig, type S3ArtifactsConfig } from '../../schemas/config.js';
import type { ResultsStore } from './results-store.js';
import { SqliteResultsStore } from './sqlite-results.js';
import { BucketResultsStore } from './bucket-results.js';

const buckets = new Map<string, BucketResultsStore>();

/** The results store in `bucket` (its prefix is the store's), one per place for the process. */
function bucketResults(bucket: S3ArtifactsConfig, env: NodeJS.ProcessEnv = process.env): BucketResultsStore {
  const id = JSON.stringify([bucket, env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL ?? null]);
  let store = buckets.get(id);
  if (!store) buckets.set(id, (store = new BucketResultsStore(s3Backend(bucket, artifactsDir(), env))));
  return store;
}

/** The results store at `url`: s3://bucket/prefix, `sqlite` or `sqlite:<file>`. */
function resultsStoreAt(url: string, where: string, env: NodeJS.ProcessEnv = process.env): ResultsStore {
  const u = url.trim();
  if (u === 'sqlite') return new SqliteResultsStore();
  if (u.startsWith('sqlite:')) return new SqliteResultsStore(u.slice('sqlite:'.length));
  if (u.startsWith('s3://')) return bucketResults(bucketAt(u, where), env);
  throw new BadInputError(`${where}: "${url}" is not a results store; use s3://<bucket>/<prefix> (workers on several hosts), sqlite (this host's state dir) or sqlite:<file>`);
}

/** The process's results store, as configured now (read per call: it is cheap, and tests change the environment). */
export function resultsStore(env: NodeJS.ProcessEnv = process.env, file: string = configPath()): ResultsStore {
  const url = env.PHYSVEC_RESULTS_URL?.trim();
  if (url) return resultsStoreAt(url, 'PHYSVEC_RESULTS_URL', env);
  const section = configSection(file, 'results', ResultsConfig.optional(), undefined);
  if (section) return section.backend === 's3' ? bucketResults(section.s3!, env) : new SqliteResultsStore();
  const artifacts = configuredBucket(env, file);
  return artifacts ? bucketResults({ ...artifacts, prefix: joinKey(artifacts.prefix, 'results') }, env) : new SqliteResultsStore();
}
