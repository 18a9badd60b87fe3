// Ctrl-C while a verb follows a run it started: the run is durable and keeps its place on the
// server, so the process leaves at once with ONE line saying so and how to look at it or stop it.
// When this process was also running the workers (`--workers in-process`, or auto with none polling),
// the run waits on the server until a worker takes it again: the line says how to resume it.
// Sandbox processes are in sessions of their own, so the terminal's SIGINT never reaches them.
import { workersRunHere } from './workers-on-demand.js';

/** Exit code of a process ended by SIGINT (128 + 2), as shells report it. */
const EXIT_INTERRUPTED = 130;

/** What Ctrl-C leaves behind for the run `workflowId`, in one line. */
export function interruptedLine(workflowId: string, workersHere: boolean): string {
  const look = `physvec status ${workflowId} / physvec stop ${workflowId}`;
  return workersHere
    ? `physvec: interrupted; run ${workflowId} is still open on the server but its workers ran in this process: it waits there until a worker takes it — resume with \`physvec worker\` (${look})`
    : `physvec: interrupted; run ${workflowId} is still running on the server: ${look}`;
}

/** From now until the returned function is called, Ctrl-C prints that line and exits 130. */
export function onInterrupt(workflowId: string): () => void {
  const handler = () => {
    process.stderr.write(`${interruptedLine(workflowId, workersRunHere())}\n`);
    process.exit(EXIT_INTERRUPTED);
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
