// What a worker says once at start about the sandbox on its host: the protections in force and,
// for each missing one, why — the same words each run's result carries in `isolation.note`; then
// it starts a warm python per toolchain it serves and says when each is ready (or why runs will
// start cold).
import { Protection } from '../../schemas/sandbox.js';
import { isolationModeFromEnv, planIsolation } from './plan.js';
import { probeIsolation, type IsolationProbe } from './probe.js';
import { warmUpSandbox } from './prestart.js';
import { expediteRcuOnce } from './rcu-expedite.js';
import { DEFAULT_WARM_PROFILE, WARM_PROFILES, type WarmProfile } from './zygote.js';

let announced = false;

/** The one-paragraph summary for this host (probing it once per process). */
export async function describeSandboxProtections(probe?: IsolationProbe): Promise<string> {
  const plan = planIsolation(probe ?? (await probeIsolation()), isolationModeFromEnv());
  if (plan.missing.length === 0) return `physvec sandbox: all ${Protection.options.length} protections in force (${Protection.options.join(', ')}).`;
  return `physvec sandbox: missing ${plan.missing.join(', ')} — ${plan.reasons.join('; ')}.`;
}

/**
 * The toolchains this worker keeps a warm python for: PHYSVEC_SANDBOX_WARM_PROFILES (comma-separated)
 * or all of them, the default profile first (it also serves scripts importing none of them).
 */
function servedProfiles(print: (line: string) => void): WarmProfile[] {
  const all = [DEFAULT_WARM_PROFILE, ...(Object.keys(WARM_PROFILES) as WarmProfile[]).filter((p) => p !== DEFAULT_WARM_PROFILE)];
  const asked = process.env.PHYSVEC_SANDBOX_WARM_PROFILES?.split(',').map((s) => s.trim()).filter(Boolean);
  if (!asked) return all;
  const unknown = asked.filter((p) => !all.includes(p as WarmProfile));
  if (unknown.length) print(`physvec sandbox: PHYSVEC_SANDBOX_WARM_PROFILES names no toolchain ${unknown.join(', ')} (known: ${all.join(', ')}); ignored`);
  return all.filter((p) => asked.includes(p));
}

/**
 * Print the summary once per process (stderr, so `--json` output on stdout stays clean), then start
 * a warm python for each toolchain the worker serves, one after the other (each import takes a core
 * for seconds), each with `poolSize` runs started ahead (the worker's sandbox slots).
 */
export async function announceSandboxProtections(print: (line: string) => void = (l) => console.error(l), opts: { poolSize?: number } = {}): Promise<void> {
  if (announced) return;
  announced = true;
  print(await describeSandboxProtections());
  const plan = planIsolation(await probeIsolation(), isolationModeFromEnv());
  const expedited = plan.cgroup ? expediteRcuOnce() : null;
  if (expedited) print(expedited);
  // The worker's warm pythons start importing now, not at their first run (which would go cold).
  for (const profile of servedProfiles(print)) {
    const t = performance.now();
    const warm = await warmUpSandbox(profile, opts);
    print(warm.ok
      ? `physvec sandbox: warm python for ${profile} ready in ${((performance.now() - t) / 1000).toFixed(1)} s (preloaded ${warm.loaded.join(', ') || 'nothing'}${warm.failed.length ? `; not preloaded: ${warm.failed.join('; ')}` : ''})`
      : `physvec sandbox: ${profile} runs start cold: ${warm.reason}`);
    if (!warm.ok && profile === DEFAULT_WARM_PROFILE) return; // the host or the switch, not the toolchain: the others would say the same
  }
}
