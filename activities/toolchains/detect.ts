// Detection: is each profile's interpreter here, do its packages load, which versions. Runs our own
// probe commands (not generated code), so it runs them directly with a minimal environment
// (probe.ts). Any failure becomes a status with a reason; detection never throws for a broken
// toolchain. A probe that never finished, however often tried, is 'timed out', not 'unavailable':
// the host was too busy to tell, and nothing downstream may read that as a missing package.
import { loadToolchainConfig } from '../../lib/toolchains/config.js';
import { resolveInterpreter } from '../../lib/toolchains/interpreter.js';
import { mapLimit } from '../../lib/toolchains/map-limit.js';
import type { ToolchainConfig, ToolchainProfile, ToolchainStatus, VersionProbe } from '../../schemas/toolchain.js';
import { describeBusy, lastLine, runProbe, type ProbeOutcome } from './probe.js';

export interface DetectOptions {
  config?: ToolchainConfig;
  /** Only these profiles (default: all). */
  profiles?: string[];
  /** Probes in flight at once (default 2). */
  concurrency?: number;
  /** How one profile is detected (default detectToolchain; a worker passes its per-process cache). */
  detect?: (profile: ToolchainProfile) => Promise<ToolchainStatus>;
}

type Failure = Omit<ToolchainStatus, 'profile' | 'language' | 'topics' | 'detectMs'>;

export async function detectToolchains(opts: DetectOptions = {}): Promise<ToolchainStatus[]> {
  const config = opts.config ?? loadToolchainConfig();
  const wanted = opts.profiles ? config.profiles.filter((p) => opts.profiles!.includes(p.name)) : config.profiles;
  return mapLimit(wanted, opts.concurrency ?? 2, opts.detect ?? detectToolchain);
}

export async function detectToolchain(profile: ToolchainProfile): Promise<ToolchainStatus> {
  const started = Date.now();
  const base = { profile: profile.name, language: profile.language, topics: profile.topics };
  const done = (s: Failure): ToolchainStatus => ({
    ...base,
    ...s,
    detectMs: Date.now() - started,
  });
  try {
    const interpreter = resolveInterpreter(profile.interpreter);
    if (!interpreter) {
      const where = profile.interpreter.includes('/') ? `${profile.interpreter} does not exist` : `\`${profile.interpreter}\` is not on PATH`;
      return done({ available: false, state: 'not installed', versions: {}, version: null, reason: where, interpreter: null });
    }
    const notDone = (outcome: Exclude<ProbeOutcome, { ok: true }>) => done(probeFailure(profile, interpreter, outcome));
    const detected = await runProbe(profile.detect, interpreter);
    if (!detected.ok) return notDone(detected);
    const probed = await runProbe(profile.versionProbe, interpreter);
    if (!probed.ok) return notDone(probed);
    const versions = parseVersions(profile.versionProbe, probed.output);
    if (profile.versionProbe.output !== 'regex' && Object.keys(versions).length === 0) {
      return done({
        available: false,
        state: 'unavailable',
        versions,
        version: null,
        reason: `the version probe printed no versions: ${lastLine(probed.output) || '(no output)'}`,
        interpreter,
      });
    }
    return done({ available: true, state: 'available', versions, version: versions[profile.primaryPackage] ?? null, interpreter });
  } catch (err) {
    return done({ available: false, state: 'unavailable', versions: {}, version: null, reason: `detection crashed: ${(err as Error).message}`, interpreter: null });
  }
}

/** A failed probe's status: 'unavailable' with the probe's reason, or 'timed out' naming the load. */
function probeFailure(profile: ToolchainProfile, interpreter: string, outcome: Exclude<ProbeOutcome, { ok: true }>): Failure {
  const base = { available: false, versions: {}, version: null, interpreter } as const;
  if (!outcome.timedOut) return { ...base, state: 'unavailable', reason: outcome.reason };
  const reason = `${describeBusy(outcome.command, outcome.busy)}: the host is too busy to confirm ${profile.packageLabel}; it was not found missing`;
  return { ...base, state: 'timed out', reason, busy: outcome.busy };
}

function parseVersions(probe: VersionProbe, output: string): Record<string, string> {
  if (probe.output === 'regex') {
    const m = new RegExp(probe.pattern!).exec(output);
    return { [probe.package!]: m?.[1] ?? 'unknown' };
  }
  if (probe.output === 'lines') {
    const versions: Record<string, string> = {};
    for (const line of output.split('\n')) {
      const m = /^\s*(\S+)\s+v?(\d[\w.+-]*)\s*$/.exec(line);
      if (m) versions[m[1]!] = m[2]!;
    }
    return versions;
  }
  // json: the last line that parses as an object of strings (packages may print warnings before it).
  for (const line of output.split('\n').reverse()) {
    const t = line.trim();
    if (!t.startsWith('{')) continue;
    try {
      const obj = JSON.parse(t) as unknown;
      if (obj && typeof obj === 'object' && !Array.isArray(obj)) {
        return Object.fromEntries(Object.entries(obj).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
      }
    } catch {
      /* not the JSON line */
    }
  }
  return {};
}
