// What a worker says once at start about the sandbox on its host: the protections in force and,
// for each missing one, why — the same words each run's result carries in `isolation.note`.
import { Protection } from '../../schemas/sandbox.js';
import { isolationModeFromEnv, planIsolation } from './plan.js';
import { probeIsolation, type IsolationProbe } from './probe.js';

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
}
