// Which toolchain a task runs with, and when that is not the one it asks for, the explicit
// substitution: a rewritten request for the Author and a one-line note for the report. A task that
// demands an absent package stops with a message unless the user chose a substitute (--toolchain or
// a configured default); a task that names no package runs with the first available profile of its
// topic, and if that is not the topic's native one this is reported as a substitution too. A
// toolchain whose check timed out (a busy host) is neither present nor absent: a plan that needs it
// fails as unconfirmed, never with install advice and never by substituting for it (issue 24).
import { BadInputError } from '../errors.js';
import { getProfile, languageLabel, loadToolchainConfig, profilesForTopic, requireTopic } from './config.js';
import { findDemands, namesPattern, splitSentences } from './demands.js';
import { rewriteText } from './text-rewrite.js';
import type {
  SubstituteSpec,
  SubstitutionPlan,
  SubstitutionTask,
  ToolchainConfig,
  ToolchainProfile,
  ToolchainStatus,
} from '../../schemas/toolchain.js';

export interface PlanSubstitutionOptions {
  /** `--toolchain <profile>`: use this profile, substituting if it is not the demanded one. */
  toolchain?: string;
  /** A configured default substitute, used only when the demanded toolchain is absent. */
  configDefault?: string;
  config?: ToolchainConfig;
}

/** Names of available profiles, or detection results (then versions appear in the note). */
export type AvailableToolchains = ReadonlySet<string> | readonly string[] | readonly ToolchainStatus[];

export function planSubstitution(task: SubstitutionTask, opts: PlanSubstitutionOptions, available: AvailableToolchains): SubstitutionPlan {
  const config = opts.config ?? loadToolchainConfig();
  const topic = requireTopic(task.topic);
  const candidates = profilesForTopic(topic, config);
  if (candidates.length === 0) return { ok: false, message: `no toolchain profile serves ${topic} tasks (see data/toolchains.json)` };
  const status = statusLookup(available);
  const who = task.id ?? 'this task';
  const demand = findDemands(task.User_requests, candidates)[0];
  const original = demand?.profile ?? candidates[0]!;
  const explicit = demand !== undefined;

  if (opts.toolchain) {
    const chosen = getProfile(opts.toolchain, config);
    if (!chosen.topics.includes(topic)) {
      return { ok: false, message: `--toolchain ${chosen.name} serves ${chosen.topics.join('/')} tasks, not ${topic}; profiles for ${topic}: ${candidates.map((p) => p.name).join(', ')}` };
    }
    if (status.timedOut(chosen.name)) return unconfirmed(status, chosen);
    if (!status.has(chosen.name)) {
      return { ok: false, message: `--toolchain ${chosen.name} was given, but ${chosen.packageLabel} (${languageLabel(chosen.language)}) ${absence(status, chosen)}; ${chosen.installHint}` };
    }
    if (chosen.name === original.name) return { ok: true, profile: chosen.name, substituted: false };
    const spec = specFor(chosen, original);
    if (spec) return substitution(task, original, chosen, spec, explicit, status, `--toolchain ${chosen.name}`);
    if (!explicit) return { ok: true, profile: chosen.name, substituted: false };
    return { ok: false, message: `${who} demands ${original.packageLabel}, and --toolchain ${chosen.name} declares no substitution for ${original.name}${suggestion(config, original, status)}` };
  }

  if (status.has(original.name)) return { ok: true, profile: original.name, substituted: false };
  if (status.timedOut(original.name)) return unconfirmed(status, original);

  const configured = opts.configDefault ? config.profiles.find((p) => p.name === opts.configDefault) : undefined;
  const configuredSpec = configured && status.has(configured.name) ? specFor(configured, original) : undefined;
  if (configured && configuredSpec) return substitution(task, original, configured, configuredSpec, explicit, status, 'the configured default');

  if (!explicit) {
    const fallback = candidates.find((p) => status.has(p.name));
    if (fallback) {
      const spec = specFor(fallback, original);
      return spec ? substitution(task, original, fallback, spec, false, status, 'the first available profile') : { ok: true, profile: fallback.name, substituted: false };
    }
    // One the busy host could not confirm may well be there: not a reason to call the task unrunnable.
    const busy = candidates.find((p) => status.timedOut(p.name));
    if (busy) return unconfirmed(status, busy);
    return { ok: false, message: `no toolchain for ${topic} tasks is installed here (${candidates.map((p) => `${p.name}: ${absence(status, p)}`).join('; ')})` };
  }

  const ignored = opts.configDefault && !configuredSpec ? ` (the configured default "${opts.configDefault}" cannot stand in for it here)` : '';
  const sub = availableSubstitute(config, original, status);
  const rerun = sub ? `rerun with --toolchain ${sub.name} to use the substitute, or ${original.installHint}` : `no substitute is installed here; ${original.installHint}`;
  return { ok: false, message: `${who} demands ${original.packageLabel} (${languageLabel(original.language)}), which ${absence(status, original)}${ignored}; ${rerun}` };
}

/**
 * The request with the demand sentence replaced by the substitute's sentence; other sentences naming
 * the original package get the term rewrites. With no demand sentence, the substitute's sentence is appended.
 */
export function rewriteRequest(request: string, original: ToolchainProfile, spec: SubstituteSpec): string {
  const mentions = namesPattern(original.demandNames);
  const sentences = splitSentences(request).filter((s) => new RegExp(mentions).test(s.text));
  if (sentences.length === 0) return `${request.trimEnd()} ${spec.request}`;
  let out = '';
  let at = 0;
  sentences.forEach((s, i) => {
    out += request.slice(at, s.start) + (i === 0 ? spec.request : rewriteText(s.text, spec.rubricRewrites));
    at = s.end;
  });
  return out + request.slice(at);
}

function substitution(
  task: SubstitutionTask,
  original: ToolchainProfile,
  chosen: ToolchainProfile,
  spec: SubstituteSpec,
  explicit: boolean,
  status: StatusLookup,
  how: string,
): SubstitutionPlan {
  const version = status.get(chosen.name)?.version;
  const why = status.has(original.name) ? `was replaced on request (${how})` : `${absence(status, original)}, so ${how} was used`;
  const note =
    `Toolchain substitution: ${chosen.primaryPackage}${version ? ` ${version}` : ''} (profile ${chosen.name}, ${languageLabel(chosen.language)}) stands in for ` +
    `${original.packageLabel} (profile ${original.name}, ${languageLabel(original.language)}), which ${why}; ` +
    `${explicit ? "the package demand in the Author's request was rewritten" : "the Author's request names the substitute"} and rubric leaves naming ${original.packageLabel} or its API are adapted.`;
  return { ok: true, profile: chosen.name, substituted: true, original: original.name, rewrittenRequest: rewriteRequest(task.User_requests, original, spec), note };
}

/** The plan when `profile` could not be confirmed: a busy host, so no advice to install anything. */
function unconfirmed(status: StatusLookup, profile: ToolchainProfile): SubstitutionPlan {
  const reason = status.reasonOf(profile.name)?.reason ?? 'its check timed out';
  return {
    ok: false,
    message: `${profile.packageLabel} (profile ${profile.name}) could not be confirmed: ${reason}; the check is repeated when the host is less busy`,
    unconfirmed: { profile: profile.name, reason },
  };
}

/** The substitution spec `chosen` declares for `original`, if any. */
export function specFor(chosen: ToolchainProfile, original: ToolchainProfile | string): SubstituteSpec | undefined {
  const name = typeof original === 'string' ? original : original.name;
  return chosen.substitutes.find((s) => s.for === name);
}

function availableSubstitute(config: ToolchainConfig, original: ToolchainProfile, status: StatusLookup): ToolchainProfile | undefined {
  return config.profiles.find((p) => specFor(p, original) && status.has(p.name));
}

function suggestion(config: ToolchainConfig, original: ToolchainProfile, status: StatusLookup): string {
  const sub = availableSubstitute(config, original, status);
  return sub ? `; rerun with --toolchain ${sub.name}` : '';
}

interface StatusLookup {
  has(name: string): boolean;
  /** Its check timed out: neither present nor absent. */
  timedOut(name: string): boolean;
  get(name: string): ToolchainStatus | undefined;
  /** Detection results including unavailable ones, when given. */
  reasonOf(name: string): { state: ToolchainStatus['state']; reason?: string } | undefined;
}

function statusLookup(available: AvailableToolchains): StatusLookup {
  const list = [...(available as Iterable<string | ToolchainStatus>)];
  if (list.some((x) => typeof x !== 'string' && (typeof x !== 'object' || x === null || !('profile' in x)))) {
    throw new BadInputError('planSubstitution: `available` must be profile names or detection results (ToolchainStatus)');
  }
  const statuses = new Map<string, ToolchainStatus>();
  const names = new Set<string>();
  for (const x of list) {
    if (typeof x === 'string') names.add(x);
    else {
      statuses.set(x.profile, x);
      if (x.available) names.add(x.profile);
    }
  }
  return {
    has: (n) => names.has(n),
    timedOut: (n) => statuses.get(n)?.state === 'timed out',
    get: (n) => statuses.get(n),
    reasonOf: (n) => statuses.get(n),
  };
}

function absence(status: StatusLookup, profile: ToolchainProfile): string {
  const s = status.reasonOf(profile.name);
  if (s?.state === 'unavailable') return `is unavailable here (${s.reason ?? 'detection failed'})`;
  if (s?.state === 'timed out') return `could not be confirmed here (${s.reason ?? 'its check timed out'})`;
  return 'is not installed here';
}
