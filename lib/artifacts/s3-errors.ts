// What an S3 failure means for the user: one line naming the bucket/key, what went wrong and the fix.
// Credentials refused, an endpoint that does not answer and a missing bucket are the store being
// unavailable — an infrastructure fault the activity retries, never counted against the script.
import { ArtifactStoreUnavailableError } from './blob-backend.js';

interface Where {
  bucket: string;
  key: string;
  endpoint: string;
  /** The operation, for the message: 'upload', 'download', … */
  what: string;
}

const CREDENTIAL_ERRORS = new Set(['CredentialsProviderError', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'ExpiredToken', 'InvalidToken', 'Forbidden']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

/** The HTTP status of an SDK error, if it got a response. */
export function s3StatusOf(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}

function networkCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: string }).code;
    if (code && NETWORK_CODES.has(code)) return code;
    if ((e as { name?: string }).name === 'TimeoutError') return 'timeout';
  }
  return undefined;
}

/** `err` from the SDK as the store's error: ArtifactStoreUnavailableError for the store's faults. */
export function s3Fault(err: unknown, w: Where): Error {
  const name = (err as { name?: string })?.name ?? 'Error';
  const detail = (err as Error)?.message || name;
  const at = `s3://${w.bucket}/${w.key}`;
  const status = s3StatusOf(err);
  if (CREDENTIAL_ERRORS.has(name) || status === 403) {
    return new ArtifactStoreUnavailableError(
      `artifact store: cannot ${w.what} ${at} at ${w.endpoint}: the bucket refused this worker's credentials (${name}: ${detail}); set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE) for the worker, with read/write access to the bucket`,
      { cause: err },
    );
  }
  if (name === 'NoSuchBucket') {
    return new ArtifactStoreUnavailableError(`artifact store: bucket "${w.bucket}" does not exist at ${w.endpoint}; create it, or fix artifacts.s3.bucket in physvec.config.json / PHYSVEC_ARTIFACTS_URL`, { cause: err });
  }
  const code = networkCode(err);
  if (code || (status !== undefined && status >= 500)) {
    return new ArtifactStoreUnavailableError(
      `artifact store: cannot ${w.what} ${at}: the object store at ${w.endpoint} did not answer (${code ?? `HTTP ${status}`}: ${detail}); check that it is up and reachable from this host (artifacts.s3.endpoint / AWS_ENDPOINT_URL_S3)`,
      { cause: err },
    );
  }
  return new Error(`artifact store: cannot ${w.what} ${at} at ${w.endpoint} (${name}: ${detail})`, { cause: err });
}
