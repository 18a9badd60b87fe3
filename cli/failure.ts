// Every way a verb can fail, turned into one line for a person (and one JSON document for --json):
// what failed, the root cause unwrapped from Temporal's wrappers (WorkflowFailedError → ActivityFailure
// / ChildWorkflowFailure → ApplicationFailure, gRPC ServiceError) and what to do. Stack traces are
// never printed (PHYSVEC_DEBUG=1 adds the original error's stack, for developers).
import {
  ActivityFailure, ApplicationFailure, CancelledFailure, ChildWorkflowFailure, ServerFailure, TerminatedFailure, TimeoutFailure,
} from '@temporalio/common';
import { WorkflowFailedError, WorkflowNotFoundError, isGrpcServiceError } from '@temporalio/client';
import { CommanderError } from 'commander';
import { BadInputError } from '../lib/errors.js';
import { isStoreUnavailable } from '../lib/artifacts/blob-backend.js';
import { TemporalUnreachableError, temporalTarget } from '../lib/temporal/connection.js';
import { EXIT } from './output.js';

export type FailureKind = 'bad-input' | 'usage' | 'not-found' | 'workflow-failed' | 'server-unreachable' | 'server-error' | 'internal';

export interface CliFailure {
  exitCode: (typeof EXIT)['failed'] | (typeof EXIT)['badInput'];
  kind: FailureKind;
  /** The whole message; its first line stands alone (names the file/field/flag or thing, and the fix). */
  message: string;
  /** The innermost cause, when Temporal wrapped it. */
  cause?: { type?: string; message: string; activity?: string; workflow?: string };
}

/**
 * ApplicationFailure types raised for input the user can fix (see temporal-config/timeouts.ts). What a
 * model did (an answer that never matched its schema, a refusal, a cut-off answer, an Author script
 * that never had the required structure) is not among them: that run failed, exit 1.
 */
const BAD_INPUT_TYPES = new Set(['BadInputError', 'CassetteMismatchError', 'CassetteError']);

/** gRPC status codes (https://grpc.github.io/grpc/core/md_doc_statuscodes.html) we explain. */
const GRPC = { INVALID_ARGUMENT: 3, DEADLINE_EXCEEDED: 4, NOT_FOUND: 5, ALREADY_EXISTS: 6, PERMISSION_DENIED: 7, UNAVAILABLE: 14, UNAUTHENTICATED: 16 } as const;

const oneLine = (s: string) => s.split('\n').map((l) => l.trim()).filter(Boolean).join('; ');

function causes(err: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e: unknown = err; e !== undefined && e !== null && out.length < 12; e = (e as { cause?: unknown }).cause) out.push(e);
  return out;
}

function grpcCode(err: unknown): number | undefined {
  for (const e of causes(err)) {
    if (isGrpcServiceError(e)) return e.code;
  }
  return undefined;
}

function grpcDetails(err: unknown): string {
  for (const e of causes(err)) if (isGrpcServiceError(e)) return e.details || e.message;
  return (err as Error).message ?? String(err);
}

function unreachable(address: string, detail?: string): CliFailure {
  return {
    exitCode: EXIT.failed,
    kind: 'server-unreachable',
    message:
      `cannot reach the Temporal server at ${address}${detail ? ` (${detail})` : ''}: start one with \`physvec server start\`, ` +
      'or set TEMPORAL_ADDRESS (and TEMPORAL_NAMESPACE, TEMPORAL_API_KEY for a cluster or Temporal Cloud) to a running one',
  };
}

/** What a closed workflow's failure comes down to: the innermost cause, the activity or child that raised it. */
export function workflowFailureCause(err: WorkflowFailedError | Error): NonNullable<CliFailure['cause']> {
  let activity: string | undefined;
  let workflow: string | undefined;
  let leaf: unknown = err;
  for (const e of causes(err).slice(err instanceof WorkflowFailedError ? 1 : 0)) {
    if (e instanceof ActivityFailure) activity ??= e.activityType;
    else if (e instanceof ChildWorkflowFailure) workflow ??= `${e.workflowType} ${e.execution.workflowId}`;
    leaf = e;
  }
  if (leaf instanceof ApplicationFailure) return { type: leaf.type ?? undefined, message: oneLine(leaf.message), activity, workflow };
  if (leaf instanceof TimeoutFailure) return { type: `timeout (${leaf.timeoutType})`, message: 'timed out', activity, workflow };
  if (leaf instanceof TerminatedFailure) return { type: 'terminated', message: oneLine(leaf.message || 'terminated'), activity, workflow };
  if (leaf instanceof CancelledFailure) return { type: 'cancelled', message: oneLine(leaf.message || 'cancelled'), activity, workflow };
  if (leaf instanceof ServerFailure) return { type: 'server', message: oneLine(leaf.message), activity, workflow };
  return { message: oneLine((leaf as Error)?.message ?? String(leaf)), activity, workflow };
}

function fromWorkflowFailure(err: WorkflowFailedError): CliFailure {
  const cause = workflowFailureCause(err);
  const where = [cause.workflow ? `child workflow ${cause.workflow}` : '', cause.activity ? `activity ${cause.activity}` : ''].filter(Boolean).join(', ');
  const bad = cause.type !== undefined && BAD_INPUT_TYPES.has(cause.type);
  const retry = err.retryState && /MAXIMUM_ATTEMPTS|TIMEOUT/.test(String(err.retryState)) ? ' (out of retry attempts)' : '';
  return {
    exitCode: bad ? EXIT.badInput : EXIT.failed,
    kind: bad ? 'bad-input' : 'workflow-failed',
    message: `the workflow failed${where ? ` in ${where}` : ''}${retry}: ${cause.message}${cause.type && !bad ? ` [${cause.type}]` : ''}` +
      `${bad ? '' : ' — see the run in the Temporal UI or `physvec status <workflow-id>`'}`,
    cause,
  };
}

/** Any error a verb raised → one explained failure. */
export function describeCliFailure(err: unknown): CliFailure {
  if (err instanceof BadInputError || (err as Error)?.name === 'BadInputError') {
    return { exitCode: EXIT.badInput, kind: 'bad-input', message: (err as Error).message };
  }
  if (err instanceof CommanderError) return { exitCode: EXIT.badInput, kind: 'usage', message: err.message.replace(/^error: /, '') };
  if (err instanceof TemporalUnreachableError) return unreachable(err.address, err.detail);
  if (err instanceof WorkflowFailedError) return fromWorkflowFailure(err);
  // Before the network-error checks below, which would take the bucket's ECONNREFUSED for Temporal's.
  if (isStoreUnavailable(err)) return { exitCode: EXIT.failed, kind: 'server-unreachable', message: (err as Error).message };
  if (err instanceof WorkflowNotFoundError) {
    return { exitCode: EXIT.badInput, kind: 'not-found', message: `no workflow ${err.workflowId} on the Temporal server at ${temporalTarget().address} (namespace ${temporalTarget().namespace}): check the id with \`physvec runs\`; the dev server keeps closed runs 24 h` };
  }
  const code = grpcCode(err);
  if (code !== undefined) {
    const details = oneLine(grpcDetails(err));
    const address = temporalTarget().address;
    if (code === GRPC.UNAVAILABLE) return unreachable(address, details);
    const wf = /workflow not found for ID: (\S+)/i.exec(details);
    if (code === GRPC.NOT_FOUND && wf) {
      return { exitCode: EXIT.badInput, kind: 'not-found', message: `no workflow ${wf[1]} on the Temporal server at ${address} (namespace ${temporalTarget().namespace}): check the id with \`physvec runs\`; the dev server keeps closed runs 24 h` };
    }
    if (code === GRPC.NOT_FOUND) return { exitCode: EXIT.badInput, kind: 'not-found', message: `${details} (server ${address}): check the id with \`physvec runs\` or \`physvec schedule list\`` };
    const sa = /no mapping defined for search attribute (\w+)/i.exec(details);
    if (sa) {
      return {
        exitCode: EXIT.badInput,
        kind: 'bad-input',
        message: `the Temporal server at ${address} does not know the search attribute ${sa[1]}: restart the dev server (\`physvec server stop && physvec server start\` registers it), or on a cluster run \`temporal operator search-attribute create --name ${sa[1]} --type Keyword\``,
      };
    }
    if (code === GRPC.INVALID_ARGUMENT) return { exitCode: EXIT.badInput, kind: 'bad-input', message: `the Temporal server refused the request: ${details}; fix the value it names` };
    if (code === GRPC.UNAUTHENTICATED || code === GRPC.PERMISSION_DENIED) {
      return { exitCode: EXIT.badInput, kind: 'bad-input', message: `the Temporal server at ${address} refused the credentials: ${details}; check TEMPORAL_API_KEY / TEMPORAL_TLS_* and TEMPORAL_NAMESPACE` };
    }
    if (code === GRPC.DEADLINE_EXCEEDED) return { exitCode: EXIT.failed, kind: 'server-error', message: `the Temporal server at ${address} did not answer in time (${details}); check it with \`physvec server status\`` };
    return { exitCode: EXIT.failed, kind: 'server-error', message: `the Temporal server at ${address} answered with an error: ${details} (gRPC code ${code})` };
  }
  const e = err as Error;
  const text = oneLine(e?.message ?? String(err));
  if (/Failed to connect before the deadline|ECONNREFUSED|No connection established/i.test(text)) return unreachable(temporalTarget().address, text);
  return { exitCode: EXIT.failed, kind: 'internal', message: `${e?.name && e.name !== 'Error' ? `${e.name}: ` : ''}${text || 'unknown error'} (an unexpected failure; rerun with PHYSVEC_DEBUG=1 for details)` };
}

/** Whether the command line asked for one JSON document. */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

/** Print a failure: the JSON error document on stdout for --json, always the line on stderr. */
export function reportFailure(err: unknown, argv: readonly string[]): number {
  const f = describeCliFailure(err);
  if (wantsJson(argv)) process.stdout.write(JSON.stringify({ ok: false, error: { kind: f.kind, exitCode: f.exitCode, message: f.message, ...(f.cause ? { cause: f.cause } : {}) } }, null, 2) + '\n');
  if (f.kind !== 'usage') process.stderr.write(`physvec: ${f.message}\n`);
  if (process.env.PHYSVEC_DEBUG && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
  return f.exitCode;
}
