// The runner for each sandbox language, and which of them this host can run.
import type { SandboxLanguage } from '../../schemas/sandbox.js';
import { juliaProfile } from './julia.js';
import { orcaProfile } from './orca.js';
import { pythonProfile } from './python.js';
import type { ResolvedRunner, RunnerProfile } from './profile.js';

export const RUNNER_PROFILES: Record<SandboxLanguage, RunnerProfile> = {
  python: pythonProfile,
  julia: juliaProfile,
  orca: orcaProfile,
};

export interface RunnerAvailability {
  language: SandboxLanguage;
  available: boolean;
  executable: string | null;
  version: string | null;
  /** Why not, when unavailable. */
  reason: string | null;
}

const resolved = new Map<SandboxLanguage, Promise<ResolvedRunner | string>>();

/** The runner for `language`, resolved once per process; throws with the reason when the toolchain is absent. */
export async function runnerFor(language: SandboxLanguage): Promise<ResolvedRunner> {
  let p = resolved.get(language);
  if (!p) {
    p = RUNNER_PROFILES[language].resolve().then((r) => (r.available ? r.runner : r.reason));
    resolved.set(language, p);
  }
  const r = await p;
  if (typeof r === 'string') throw new RunnerUnavailableError(language, r);
  return r;
}

export class RunnerUnavailableError extends Error {
  override name = 'RunnerUnavailableError';
  constructor(readonly language: SandboxLanguage, readonly reason: string) {
    super(`no ${language} runner on this host: ${reason}`);
  }
}

export async function availableRunners(): Promise<RunnerAvailability[]> {
  return Promise.all(
    (Object.keys(RUNNER_PROFILES) as SandboxLanguage[]).map(async (language) => {
      try {
        const r = await runnerFor(language);
        return { language, available: true, executable: r.executable, version: r.version, reason: null };
      } catch (err) {
        const reason = err instanceof RunnerUnavailableError ? err.reason : (err as Error).message;
        return { language, available: false, executable: null, version: null, reason };
      }
    }),
  );
}
