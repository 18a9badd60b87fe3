// Toolchain profiles (data/toolchains.json), what detection found on this machine, and the plan for
// running a task whose demanded package is absent (an explicit substitution).
import { z } from 'zod';
import { Topic } from './task.js';

export const ToolchainLanguage = z.enum(['python', 'julia', 'orca']);
export type ToolchainLanguage = z.infer<typeof ToolchainLanguage>;

const ProfileName = z.string().regex(/^[a-z][a-z0-9-]*$/, 'a profile name: lower-case letters, digits and -');

/** A command run to find out about the toolchain; `{interpreter}` stands for the resolved interpreter. */
export const ProbeCommand = z
  .object({
    argv: z.array(z.string()).min(1, 'give at least the command, e.g. ["{interpreter}", "--version"]'),
    timeoutMs: z.number().int().positive().default(60_000),
    /**
     * How long all tries together may take when the probe keeps timing out (default 7 × timeoutMs:
     * tries of timeoutMs, 2×, 4×). A probe that times out proves nothing but a busy host, so it is
     * tried again with a doubled timeout until this budget is spent (activities/toolchains/probe.ts).
     */
    timeoutBudgetMs: z.number().int().positive().optional(),
    /** Some programs (ORCA) print their banner and exit non-zero without an input file. */
    anyExitCode: z.boolean().default(false),
    /** The output (stdout + stderr) must match this, e.g. to tell ORCA from the GNOME screen reader also called `orca`. */
    expectPattern: z.string().optional(),
  })
  .strict();
export type ProbeCommand = z.infer<typeof ProbeCommand>;

export const VersionProbe = ProbeCommand.extend({
  /** json: one object {package: version}; lines: `<package> <version>` per line; regex: group 1 of `pattern`. */
  output: z.enum(['json', 'lines', 'regex']),
  pattern: z.string().optional(),
  /** The package name a regex-found version is recorded under. */
  package: z.string().optional(),
})
  .strict()
  .superRefine((p, ctx) => {
    if (p.output !== 'regex') return;
    if (!p.pattern) ctx.addIssue({ code: 'custom', path: ['pattern'], message: 'output "regex" needs a pattern whose group 1 is the version' });
    if (!p.package) ctx.addIssue({ code: 'custom', path: ['package'], message: 'output "regex" needs the package name the version belongs to' });
    if (p.pattern) {
      try {
        new RegExp(p.pattern);
      } catch (e) {
        ctx.addIssue({ code: 'custom', path: ['pattern'], message: `not a valid regular expression: ${(e as Error).message}` });
      }
    }
  });
export type VersionProbe = z.infer<typeof VersionProbe>;

/** One rewrite applied to rubric leaves (and to leftover mentions in the request) for a substitution. */
export const TextRewrite = z
  .object({
    pattern: z.string().min(1),
    replacement: z.string(),
  })
  .strict()
  .superRefine((r, ctx) => {
    try {
      new RegExp(r.pattern, 'g');
    } catch (e) {
      ctx.addIssue({ code: 'custom', path: ['pattern'], message: `not a valid regular expression: ${(e as Error).message}` });
    }
  });
export type TextRewrite = z.infer<typeof TextRewrite>;

/** How this profile stands in for another one. */
export const SubstituteSpec = z
  .object({
    /** The profile replaced. */
    for: ProfileName,
    /** The sentence that replaces the task's demand sentence in the Author's request. */
    request: z.string().min(1),
    /** Applied in order to rubric leaves naming the original package or its API. */
    rubricRewrites: z.array(TextRewrite).default([]),
  })
  .strict();
export type SubstituteSpec = z.infer<typeof SubstituteSpec>;

export const ToolchainProfile = z
  .object({
    name: ProfileName,
    title: z.string().min(1),
    /** How the package is named in messages ("ITensors/ITensorMPS"). */
    packageLabel: z.string().min(1),
    language: ToolchainLanguage,
    /** The sandbox runner that executes this profile's scripts. */
    runner: ToolchainLanguage,
    /** A command looked up on PATH (`julia`) or a path relative to the repository root (`.venv/bin/python`). */
    interpreter: z.string().min(1),
    detect: ProbeCommand,
    versionProbe: VersionProbe,
    /** The key of the probe's versions that is "the" version of the toolchain. */
    primaryPackage: z.string().min(1),
    topics: z.array(Topic).min(1),
    /** Folder under data/verifier-library, or null when the profile has no verifier library. */
    verifierLibrary: z.string().regex(/^[a-z][a-z0-9-]*$/).nullable(),
    /** Names a task text may demand; any of them (whole word, any case) selects this profile. */
    demandNames: z.array(z.string().min(2)).min(1),
    installHint: z.string().min(1),
    substitutes: z.array(SubstituteSpec).default([]),
  })
  .strict();
export type ToolchainProfile = z.infer<typeof ToolchainProfile>;

export const ToolchainConfig = z
  .object({
    $comment: z.string().optional(),
    profiles: z.array(ToolchainProfile).min(1),
  })
  .strict()
  .superRefine((c, ctx) => {
    const names = c.profiles.map((p) => p.name);
    c.profiles.forEach((p, i) => {
      if (names.indexOf(p.name) !== i) ctx.addIssue({ code: 'custom', path: ['profiles', i, 'name'], message: `profile "${p.name}" is defined twice` });
      p.substitutes.forEach((s, j) => {
        const target = c.profiles.find((q) => q.name === s.for);
        const path = ['profiles', i, 'substitutes', j, 'for'];
        if (!target) ctx.addIssue({ code: 'custom', path, message: `"${s.for}" is not a profile (known: ${names.join(', ')})` });
        else if (s.for === p.name) ctx.addIssue({ code: 'custom', path, message: 'a profile cannot substitute for itself' });
        else if (!target.topics.some((t) => p.topics.includes(t))) {
          ctx.addIssue({ code: 'custom', path, message: `"${p.name}" shares no topic with "${s.for}", so it cannot stand in for it` });
        }
      });
    });
  });
export type ToolchainConfig = z.infer<typeof ToolchainConfig>;

/**
 * available: detected and loads; not installed: interpreter absent; unavailable: present but broken;
 * timed out: a probe did not finish within its whole retry budget: the host was too busy to tell,
 * which is no evidence that the toolchain is missing (issue 24).
 */
export const ToolchainState = z.enum(['available', 'not installed', 'unavailable', 'timed out']);
export type ToolchainState = z.infer<typeof ToolchainState>;

export const ToolchainStatus = z.object({
  profile: z.string(),
  available: z.boolean(),
  state: ToolchainState,
  /** Package → version, as the probe printed them. */
  versions: z.record(z.string(), z.string()),
  /** The primary package's version (null when not available or the probe could not tell). */
  version: z.string().nullable(),
  /** Why the profile is not available (absent when it is). */
  reason: z.string().optional(),
  /** The resolved interpreter path, or null when it was not found. */
  interpreter: z.string().nullable(),
  language: ToolchainLanguage,
  topics: z.array(Topic),
  detectMs: z.number().nonnegative(),
  /** State 'timed out' only: the tries' timeouts and the host's load when the last one ran out. */
  busy: z
    .object({
      triesMs: z.array(z.number().int().positive()),
      load1: z.number().nonnegative(),
      cores: z.number().int().positive(),
    })
    .optional(),
});
export type ToolchainStatus = z.infer<typeof ToolchainStatus>;

/** The task fields substitution looks at; `id` (the file stem) only makes messages name the task. */
export const SubstitutionTask = z.object({
  User_requests: z.string(),
  topic: z.string(),
  id: z.string().optional(),
});
export type SubstitutionTask = z.infer<typeof SubstitutionTask>;

export const SubstitutionPlan = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    profile: z.string(),
    substituted: z.literal(false),
  }),
  z.object({
    ok: z.literal(true),
    profile: z.string(),
    substituted: z.literal(true),
    /** The profile the task demanded (explicitly, or as its topic's native toolchain). */
    original: z.string(),
    rewrittenRequest: z.string(),
    /** One line for the first line of the report. */
    note: z.string(),
  }),
  z.object({
    ok: z.literal(false),
    message: z.string(),
    /**
     * Set when the plan failed only because a profile it needs could not be confirmed (state 'timed
     * out'): not bad input, the same task may run once the host is less busy.
     */
    unconfirmed: z.object({ profile: z.string(), reason: z.string() }).optional(),
  }),
]);
export type SubstitutionPlan = z.infer<typeof SubstitutionPlan>;

export const AdaptedLeaf = z.object({
  /** The leaf's `index` when it has one (1-based, as flattenRubric numbers them), else its position + 1. */
  index: z.number().int().positive(),
  original: z.string(),
  adapted: z.string(),
});
export type AdaptedLeaf = z.infer<typeof AdaptedLeaf>;
