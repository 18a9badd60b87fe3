// The Verifier library builder (paper, Appendix C, Fig. 9): proposals (the hand-written files in
// data/verifier-library/<profile>/, plus whatever a `propose` hook returns) go through one gate —
// parse, then run the function's own check in the sandbox — and only those that execute and pass are
// indexed, with the toolchain versions they passed with. A profile whose toolchain is absent here
// keeps its earlier verified entries and lists new proposals as unverified, never as verified.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BadInputError } from '../../lib/errors.js';
import { loadToolchainConfig } from '../../lib/toolchains/config.js';
import { mapLimit } from '../../lib/toolchains/map-limit.js';
import { VerifierCategory, VerifierIndex, type VerifierEntry, type VerifierLanguage } from '../../lib/verifier-library/index-schema.js';
import { readIndexFile } from '../../lib/verifier-library/load.js';
import { indexFile, libraryDir, verifierLibraryRoot } from '../../lib/verifier-library/paths.js';
import { parseProposal, readProposalFolder, type Proposal, type ProposalInput } from '../../lib/verifier-library/proposal.js';
import { resultLines } from '../../activities/pipeline/run-job.js';
import { detectToolchain } from '../../activities/toolchains/detect.js';
import { sandboxRunCheck, type CheckFile, type CheckRun, type RunCheck } from './run-check.js';
import type { ToolchainConfig, ToolchainProfile, ToolchainStatus } from '../../schemas/toolchain.js';

/**
 * The LLM-writing path (not wired yet): given a profile and the proposals already on disk, return new
 * ProposalInputs — e.g. written by the LLM layer from knowledge-base retrievals of the package docs.
 * They pass through exactly the same gate as hand-written files; nothing an LLM writes is indexed
 * unless its own check passes in the sandbox.
 */
export type ProposeFunctions = (profile: ToolchainProfile, existing: readonly Proposal[]) => Promise<ProposalInput[]>;

export interface BuildVerifierLibraryOptions {
  /** Only this profile (default: every profile with a verifier library). */
  profile?: string;
  /** Library root (default data/verifier-library). */
  root?: string;
  /** Write index.json (default true); tests set false to leave the committed index alone. */
  write?: boolean;
  /** Extra proposals (test fixtures, or an LLM's output), for `profile` or for every profile built. */
  extraProposals?: ProposalInput[];
  propose?: ProposeFunctions;
  /** How a check is run; default: the sandbox. */
  runCheck?: (language: VerifierLanguage) => RunCheck;
  /** Detection results to use instead of probing again. */
  statuses?: ToolchainStatus[];
  config?: ToolchainConfig;
  /** Checks in flight at once (default 2). */
  concurrency?: number;
  /** Per check (default 240 s: NetKet's JIT is slow on a busy machine). */
  timeoutMs?: number;
  onProgress?: (event: BuildProgress) => void;
}

export type BuildProgress =
  | { kind: 'profile'; profile: string; proposals: number; toolchain: ToolchainStatus }
  | { kind: 'kept'; profile: string; name: string; durationMs: number }
  | { kind: 'rejected'; profile: string; name: string; reason: string };

export interface RejectedProposal {
  name: string;
  /** structure: the files are malformed; check: the sandbox run failed or the check did not pass. */
  stage: 'structure' | 'check';
  reason: string;
  exitCode?: number | null;
  /** The end of the sandbox's stderr (the error the check died with). */
  stderrTail?: string;
}

export interface ProfileBuildReport {
  profile: string;
  toolchain: Pick<ToolchainStatus, 'state' | 'version' | 'versions' | 'reason'>;
  /** Names indexed as verified by this build. */
  kept: string[];
  rejected: RejectedProposal[];
  /** Names indexed as unverified (toolchain absent here). */
  unverified: string[];
  /** Verified entries carried over from an earlier build because the toolchain is absent now. */
  carriedOver: string[];
  entries: VerifierEntry[];
  indexFile: string | null;
  durationMs: number;
  /** Set when the profile was not built at all (no verifier library). */
  skipped?: string;
}

export interface VerifierLibraryBuildReport {
  profiles: ProfileBuildReport[];
  ok: boolean;
}

export async function buildVerifierLibrary(opts: BuildVerifierLibraryOptions = {}): Promise<VerifierLibraryBuildReport> {
  const config = opts.config ?? loadToolchainConfig();
  const profiles = opts.profile ? [config.profiles.find((p) => p.name === opts.profile)] : config.profiles.filter((p) => p.verifierLibrary);
  if (profiles[0] === undefined) {
    throw new BadInputError(`unknown toolchain profile "${opts.profile}"; known profiles: ${config.profiles.map((p) => p.name).join(', ')}`);
  }
  const reports: ProfileBuildReport[] = [];
  for (const profile of profiles as ToolchainProfile[]) reports.push(await buildProfile(profile, opts));
  return { profiles: reports, ok: reports.every((r) => r.rejected.length === 0) };
}

async function buildProfile(profile: ToolchainProfile, opts: BuildVerifierLibraryOptions): Promise<ProfileBuildReport> {
  const started = Date.now();
  const status = opts.statuses?.find((s) => s.profile === profile.name) ?? (await detectToolchain(profile));
  const toolchain = { state: status.state, version: status.version, versions: status.versions, reason: status.reason };
  const empty = { kept: [], rejected: [], unverified: [], carriedOver: [], entries: [] };
  if (!profile.verifierLibrary || profile.language === 'orca') {
    return { profile: profile.name, toolchain, ...empty, indexFile: null, durationMs: 0, skipped: `profile ${profile.name} has no verifier library` };
  }
  const language: VerifierLanguage = profile.language;
  const root = opts.root ?? verifierLibraryRoot;
  const dir = libraryDir(profile.verifierLibrary, root);

  const folder = await readProposalFolder(dir, language);
  const inputs = [...folder.inputs, ...(opts.extraProposals ?? []).filter((p) => p.language === language)];
  const rejected: RejectedProposal[] = folder.missingChecks.map((name) => ({ name, stage: 'structure', reason: `${name} has no ${name}.check file beside it` }));
  const proposals: Proposal[] = [];
  const addParsed = (list: ProposalInput[]): void => {
    for (const input of list) {
      const parsed = parseProposal(input);
      if (!parsed.ok) rejected.push({ name: parsed.name, stage: 'structure', reason: parsed.reason });
      else if (proposals.some((p) => p.name === input.name)) rejected.push({ name: input.name, stage: 'structure', reason: `${input.name} is proposed twice` });
      else proposals.push(parsed.proposal);
    }
  };
  addParsed(inputs);
  if (opts.propose) addParsed(await opts.propose(profile, proposals));
  const known = new Map(proposals.map((p) => [p.name, p]));
  const runnable = proposals.filter((p) => {
    const unknown = p.uses.filter((u) => !known.has(u));
    if (unknown.length) rejected.push({ name: p.name, stage: 'structure', reason: `its check uses ${unknown.join(', ')}, which the ${profile.name} library does not have` });
    return unknown.length === 0;
  });
  opts.onProgress?.({ kind: 'profile', profile: profile.name, proposals: proposals.length, toolchain: status });
  for (const r of rejected) opts.onProgress?.({ kind: 'rejected', profile: profile.name, name: r.name, reason: r.reason });

  const previous = readIndexFile(indexFile(profile.verifierLibrary, root));
  let entries: VerifierEntry[];
  const kept: string[] = [];
  const unverified: string[] = [];
  const carriedOver: string[] = [];
  if (!status.available) {
    // Nothing can be run here: earlier verifications stand (they name the versions they ran with).
    entries = runnable.map((p) => {
      const before = previous.find((e) => e.name === p.name && e.status === 'verified');
      if (before) {
        carriedOver.push(p.name);
        return { ...entryOf(p, profile, null, undefined), status: 'verified' as const, verifiedWith: before.verifiedWith, check: before.check };
      }
      unverified.push(p.name);
      return entryOf(p, profile, null, undefined, `not run: ${profile.name} is ${status.state} here (${status.reason ?? 'no reason given'})`);
    });
  } else {
    const runCheck = (opts.runCheck ?? ((lang: VerifierLanguage) => sandboxRunCheck(lang, {}, profile.name)))(language);
    const outcomes = await mapLimit(runnable, opts.concurrency ?? 2, async (p) => {
      const run = await runCheck(filesFor(p, known), p.checkFile, opts.timeoutMs ?? 240_000);
      const verdict = judge(run);
      if (verdict.ok) {
        kept.push(p.name);
        opts.onProgress?.({ kind: 'kept', profile: profile.name, name: p.name, durationMs: run.durationMs });
        return entryOf(p, profile, status, { result: verdict.result, durationMs: Math.round(run.durationMs) });
      }
      const r: RejectedProposal = { name: p.name, stage: 'check', reason: verdict.reason, exitCode: run.exitCode, stderrTail: run.stderr.slice(-2000) };
      rejected.push(r);
      opts.onProgress?.({ kind: 'rejected', profile: profile.name, name: p.name, reason: r.reason });
      return null;
    });
    entries = outcomes.filter((e): e is VerifierEntry => e !== null);
  }
  entries = sortEntries(VerifierIndex.parse(entries));
  const file = indexFile(profile.verifierLibrary, root);
  if (opts.write !== false) await writeIndex(file, entries);
  return { profile: profile.name, toolchain, kept: kept.sort(), rejected, unverified, carriedOver, entries, indexFile: opts.write === false ? null : file, durationMs: Date.now() - started };
}

/** The function, its check, and every library function the check uses (with theirs, transitively). */
function filesFor(p: Proposal, known: Map<string, Proposal>): CheckFile[] {
  const needed = new Set<string>([p.name]);
  const queue = [...p.uses];
  while (queue.length) {
    const name = queue.shift()!;
    if (needed.has(name)) continue;
    needed.add(name);
    queue.push(...(known.get(name)?.uses ?? []).filter((u) => u !== name));
  }
  // A used function's file only; its own check is not part of this run.
  return [...[...needed].map((n) => ({ path: known.get(n)!.file, content: known.get(n)!.source })), { path: p.checkFile, content: p.checkSource }];
}

function judge(run: CheckRun): { ok: true; result: unknown } | { ok: false; reason: string } {
  if (run.timedOut) return { ok: false, reason: `the check timed out after ${Math.round(run.durationMs / 1000)} s` };
  const results = resultLines(run.stdout);
  const last = results.at(-1);
  if (run.exitCode !== 0) {
    const error = lastErrorLine(run.stderr) ?? lastErrorLine(run.stdout) ?? '(no error output)';
    return { ok: false, reason: `the check exited with ${run.exitCode ?? 'a signal'}: ${error}` };
  }
  if (last === undefined) return { ok: false, reason: 'the check exited 0 but printed no PHYSVEC_RESULT line' };
  if (last && typeof last === 'object' && (last as { ok?: unknown }).ok === false) {
    return { ok: false, reason: `the check reported ok: false (${JSON.stringify(last).slice(0, 300)})` };
  }
  return { ok: true, result: last };
}

/** The line that names the error (Python's last traceback line, Julia's `ERROR:`), else the last line. */
function lastErrorLine(text: string): string | null {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const error = [...lines].reverse().find((l) => /^(ERROR:|[A-Za-z_.]*(Error|Exception)\b)/.test(l));
  return (error ?? lines.at(-1) ?? null)?.slice(0, 500) ?? null;
}

function entryOf(
  p: Proposal,
  profile: ToolchainProfile,
  status: ToolchainStatus | null,
  run: { result: unknown; durationMs: number } | undefined,
  note?: string,
): VerifierEntry {
  return {
    name: p.name,
    category: p.category,
    profile: profile.name,
    language: p.language,
    file: p.file,
    signature: p.signature,
    params: p.params,
    doc: p.doc,
    check: {
      file: p.checkFile,
      expected: p.expected,
      uses: p.uses,
      ...(run ? { result: run.result as VerifierEntry['check']['result'], durationMs: run.durationMs } : {}),
    },
    status: status ? 'verified' : 'unverified',
    verifiedWith: status ? { toolchainVersion: status.version ?? 'unknown', packages: status.versions, at: new Date().toISOString() } : null,
    ...(note ? { note } : {}),
  };
}

function sortEntries(entries: VerifierEntry[]): VerifierEntry[] {
  const order = VerifierCategory.options;
  return [...entries].sort((a, b) => order.indexOf(a.category) - order.indexOf(b.category) || a.name.localeCompare(b.name));
}

async function writeIndex(file: string, entries: VerifierEntry[]): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(entries, null, 2)}\n`);
  await rename(tmp, file);
}
