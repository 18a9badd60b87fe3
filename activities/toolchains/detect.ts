// Detection: is each profile's interpreter here, do its packages load, which versions. Runs our own
// probe commands (not generated code), so it runs them directly with a minimal environment. Any
// failure becomes a status with a reason; detection never throws for a broken toolchain.
import { execa } from 'execa';
import { loadToolchainConfig } from '../../lib/toolchains/config.js';
import { expandArgv, resolveInterpreter } from '../../lib/toolchains/interpreter.js';
import { mapLimit } from '../../lib/toolchains/map-limit.js';
import type { ProbeCommand, ToolchainConfig, ToolchainProfile, ToolchainStatus, VersionProbe } from '../../schemas/toolchain.js';

export interface DetectOptions {
  config?: ToolchainConfig;
  /** Only these profiles (default: all). */
  profiles?: string[];
  /** Probes in flight at once (default 2). */
  concurrency?: number;
  /** How one profile is detected (default detectToolchain; a worker passes its per-process cache). */
  detect?: (profile: ToolchainProfile) => Promise<ToolchainStatus>;
}

export async function detectToolchains(opts: DetectOptions = {}): Promise<ToolchainStatus[]> {
  const config = opts.config ?? loadToolchainConfig();
  const wanted = opts.profiles ? config.profiles.filter((p) => opts.profiles!.includes(p.name)) : config.profiles;
  return mapLimit(wanted, opts.concurrency ?? 2, opts.detect ?? detectToolchain);
}

export async function detectToolchain(profile: ToolchainProfile): Promise<ToolchainStatus> {
  const started = Date.now();
  const base = { profile: profile.name, language: profile.language, topics: profile.topics };
  const done = (s: Omit<ToolchainStatus, 'profile' | 'language' | 'topics' | 'detectMs'>): ToolchainStatus => ({
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
    const detected = await runProbe(profile.detect, interpreter);
    if (!detected.ok) return done({ available: false, state: 'unavailable', versions: {}, version: null, reason: detected.reason, interpreter });
    const probed = await runProbe(profile.versionProbe, interpreter);
    if (!probed.ok) return done({ available: false, state: 'unavailable', versions: {}, version: null, reason: probed.reason, interpreter });
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

/** Threads capped and no secrets: probes import heavy packages on a shared machine. */
function probeEnv(): Record<string, string> {
  const keep = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'OPENBLAS_CORETYPE', 'JULIA_DEPOT_PATH', 'JULIA_PROJECT'];
  const env: Record<string, string> = { OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1', MKL_NUM_THREADS: '1', JAX_PLATFORMS: 'cpu', JULIA_NUM_THREADS: '1' };
  for (const k of keep) if (process.env[k] !== undefined) env[k] = process.env[k]!;
  return env;
}

type ProbeOutcome = { ok: true; output: string } | { ok: false; reason: string };

async function runProbe(probe: ProbeCommand, interpreter: string): Promise<ProbeOutcome> {
  const [cmd, ...args] = expandArgv(probe.argv, interpreter);
  const shown = [probe.argv[0] === '{interpreter}' ? interpreter : cmd, ...probe.argv.slice(1, 2)].join(' ');
  const r = await execa(cmd!, args, { reject: false, timeout: probe.timeoutMs, env: probeEnv(), extendEnv: false, stdin: 'ignore' });
  const output = `${r.stdout ?? ''}\n${r.stderr ?? ''}`;
  if (r.timedOut) return { ok: false, reason: `\`${shown} …\` timed out after ${probe.timeoutMs} ms` };
  if (r.failed && r.exitCode === undefined) return { ok: false, reason: `\`${shown} …\` could not start: ${r.shortMessage}` };
  if (r.exitCode !== 0 && !probe.anyExitCode) {
    return { ok: false, reason: `\`${shown} …\` exited with ${r.exitCode}: ${lastLine(r.stderr ?? '') || lastLine(r.stdout ?? '') || '(no output)'}` };
  }
  if (probe.expectPattern && !new RegExp(probe.expectPattern).test(output)) {
    return { ok: false, reason: `\`${shown} …\` does not look like the expected program (its output does not match /${probe.expectPattern}/): ${lastLine(output) || '(no output)'}` };
  }
  return { ok: true, output };
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

function lastLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return (lines.at(-1) ?? '').slice(0, 300);
}
