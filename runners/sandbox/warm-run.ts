// A warm run's script handed to the zygote's run process: armed now in the run's own chain once
// its holder is up, or already armed in a chain started ahead of the run; the run process's end
// goes to the holder, which exits with it.
import type { ChainProcess } from './chain.js';
import type { Launch } from './launch.js';
import { warmRlimits } from './limits.js';
import type { HeadTailCapture } from './output-capture.js';
import type { PhaseClock } from './phase-clock.js';
import type { StartPath } from './start-path.js';
import { armInChain, armInStartingChain, holderReady, holderUp } from './warm.js';
import type { ArmedRun, GoRequest, PythonZygote } from './zygote.js';
import type { SandboxRequest } from '../../schemas/sandbox.js';

/** The phase of an own chain up to bwrap's report of its first process (the run process is forked from then on). */
export const EARLY_ARM_PHASE = 'own chain to its pid namespace (cgroup join, bwrap clone)';

/** How long a chain of a per-run warm start gets to bring its holder up. */
const HOLDER_TIMEOUT_MS = 30_000;

export interface WarmHandOver {
  req: SandboxRequest;
  runId: string;
  workDir: string;
  launch: Launch;
  chain: ChainProcess;
  stderr: HeadTailCapture;
  /** The warm start cannot make the run process (nothing of the script ran), and why. */
  abandon: (why: string) => void;
  clock: PhaseClock;
}

/** Start the script of a warm start (`start` is not cold). */
export function handOverToWarmRun(start: Exclude<StartPath, { path: 'cold' }>, h: WarmHandOver): void {
  const go: GoRequest = { env: h.launch.env, workDir: h.workDir, entry: h.req.entry, args: [...h.req.args] };
  if (start.path === 'pre-started') {
    relayWarmRun(start.pre.armed, go, h, 'pre-started run: script handed over');
  } else {
    startWarm(start.zygote, go, h);
  }
}

/**
 * A warm run whose chain starts now: as soon as bwrap reports its first process, the zygote's run
 * process is forked into the run's pid namespace (the fork overlaps bwrap's set-up, setpriv and the
 * holder's start: ~14 ms at load 4 were spent after them); once the holder reports from inside the
 * finished chain, the run process enters its view, takes the run's caps and starts the script.
 */
function startWarm(zygote: PythonZygote, go: GoRequest, h: WarmHandOver): void {
  void h.chain.nsInit.then((nsPid) => {
    if (typeof nsPid === 'string') return armWhenHolderReady(zygote, go, h);
    h.clock.mark(EARLY_ARM_PHASE);
    const armed = armInStartingChain(h.chain, h.launch, zygote, h.runId, warmRlimits(h.req), go.workDir, nsPid);
    if (typeof armed === 'string') return h.abandon(armed);
    void holderReady(h.chain, HOLDER_TIMEOUT_MS).then((notReady) => {
      const why = notReady ?? holderUp(armed, h.launch);
      h.clock.mark('bwrap set-up, setpriv, holder up; run process forked meanwhile');
      if (why) {
        armed.disarm();
        return h.abandon(why);
      }
      // Sent right behind the holder: the per-run child starts the script as soon as it is armed.
      relayWarmRun(armed, go, h, 'holder\'s view entered, cgroup join, caps, script handed over');
    });
  });
}

/** The same, arming only once the holder is up (bwrap reported no first process). */
function armWhenHolderReady(zygote: PythonZygote, go: GoRequest, h: WarmHandOver): void {
  void holderReady(h.chain, HOLDER_TIMEOUT_MS).then((notReady) => {
    if (notReady) return h.abandon(notReady);
    h.clock.mark('own chain to holder (cgroup join, bwrap, setpriv, sh)');
    const armed = armInChain(h.chain, h.launch, zygote, h.runId, warmRlimits(h.req), go.workDir);
    if (typeof armed === 'string') return h.abandon(armed);
    h.clock.mark('find holder, payload');
    relayWarmRun(armed, go, h, 'zygote fork, namespaces, cgroup join, caps, script handed over');
  });
}

/** Hand the armed run its script; its end goes to the holder (128 + signal for a signal death, as bwrap reports it). */
function relayWarmRun(armed: ArmedRun, go: GoRequest, h: WarmHandOver, phase: string): void {
  const holderStdin = h.chain.child.stdin!;
  holderStdin.on('error', () => undefined);
  const { started, done } = armed.go(go);
  void started.then((err) => {
    h.clock.mark(phase);
    if (err !== null) h.abandon(err);
  });
  void done.then((r) => {
    if ('error' in r) h.stderr.push(Buffer.from(`physvec sandbox: the warm python lost the run: ${r.error}\n`));
    const code = 'error' in r ? 125 : r.exitCode ?? 128 + (r.signal ?? 9);
    holderStdin.end(`${code}\n`);
  });
}
