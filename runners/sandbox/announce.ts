// What a worker says once at start about the sandbox on its host: the protections in force and,
// for each missing one, why — the same words each run's result carries in `isolation.note`; then
// it starts the warm python and says when it is ready (or why runs will start cold).
import { Protection } from '../../schemas/sandbox.js';
import { isolationModeFromEnv, planIsolation } from './plan.js';
import { probeIsolation, type IsolationProbe } from './probe.js';
import { warmUpSandbox } from './prestart.js';

let announced = false;

/** The one-paragraph summary for this host (probing it once per process). */
export async function describeSandboxProtections(probe?: IsolationProbe): Promise<string> {
  const plan = planIsolation(probe ?? (await probeIsolation()), isolationModeFromEnv());
  if (plan.missing.length === 0) return `physvec sandbox: all ${Protection.options.length} protections in force (${Protection.options.join(', ')}).`;
  return `physvec sandbox: missing ${plan.missing.join(', ')} — ${plan.reasons.join('; ')}.`;
}

/** Print the summary once per process (stderr, so `--json` output on stdout stays clean). */
export async function announceSandboxProtections(print: (line: string) => void = (l) => console.error(l)): Promise<void> {
  if (announced) return;
  announced = true;
  print(await describeSandboxProtections());
  // The worker's warm python starts importing now, not at its first run (which would go cold).
  const t = performance.now();
  const warm = await warmUpSandbox();
  print(warm.ok
    ? `physvec sandbox: warm python ready in ${((performance.now() - t) / 1000).toFixed(1)} s (preloaded ${warm.loaded.join(', ') || 'nothing'}${warm.failed.length ? `; not preloaded: ${warm.failed.join('; ')}` : ''})`
    : `physvec sandbox: runs start cold: ${warm.reason}`);
}
