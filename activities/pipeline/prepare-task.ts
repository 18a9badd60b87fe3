// Load a task for a reproduction: validate it, pick the toolchain profile (with an explicit
// substitution when the demanded package is absent), store the source and the rubric leaves.
import { readFile } from 'node:fs/promises';
import type { ArtifactStore } from '../../lib/artifacts/store.js';
import type { TaskContext, TaskSize } from '../../schemas/pipeline.js';
import { applyTaskSize } from '../../lib/tasks/full-size.js';
import type { ScaledSpec } from '../../schemas/task.js';
import { loadTaskFile } from '../../lib/tasks/load-task.js';
import { BadInputError, ToolchainCheckTimedOutError } from '../../lib/errors.js';
import { planSubstitution } from '../../lib/toolchains/substitution.js';
import { loadToolchainConfig, profilesForTopic, requireTopic } from '../../lib/toolchains/config.js';
import { findDemands } from '../../lib/toolchains/demands.js';
import { adaptRubricLeaves } from '../../lib/toolchains/rubric-adaptation.js';
import type { ToolchainConfig, ToolchainStatus } from '../../schemas/toolchain.js';
import { assertNoTruthLeak } from './truth-leak-check.js';
import { publishedValues } from '../../lib/tasks/published-values.js';
import { protocolForAuthor } from './protocol-source.js';

const JULIA_PROFILES = new Set(['itensors']);

export interface PrepareInput {
  taskFile: string;
  datasetRoot?: string;
  toolchain?: string;
  /** `full`: the request and the cases name the task's full-size parameters (lib/tasks/full-size.ts). */
  size?: TaskSize;
}

/** What is installed: the statuses of `profiles` (or of every profile when none are named). */
export type AvailableToolchains = (profiles?: readonly string[]) => Promise<ToolchainStatus[]>;

/** `config`: the toolchain profiles the run pinned (activities/run-inputs.ts); default the checkout's. */
export async function prepareTask(store: ArtifactStore, input: PrepareInput, available: AvailableToolchains, config: ToolchainConfig = loadToolchainConfig()): Promise<TaskContext> {
  const loaded = await loadTaskFile(input.taskFile, { sourceText: true, ...(input.datasetRoot ? { datasetRoot: input.datasetRoot } : {}) });
  const errors = loaded.problems.filter((p) => p.severity === 'error');
  if (errors.length) throw new BadInputError(errors.map((p) => `${p.file}: ${p.field ?? ''}: ${p.message}`).join('\n'), loaded.file);
  const t = loaded.task as Record<string, unknown> & typeof loaded.task;
  const request = String(t.User_requests ?? '');
  const substitutionTask = { User_requests: request, topic: loaded.topic, id: loaded.id };
  const toolchainOpt = { toolchain: input.toolchain ?? (t.toolchain as string | undefined) };
  // Detect the one toolchain this task runs with (the asked-for or demanded one); only when it is
  // absent, or stands in for another, does the plan need every profile's status (versions, substitutes).
  const candidates = profilesForTopic(requireTopic(loaded.topic), config);
  const likely = toolchainOpt.toolchain ?? findDemands(request, candidates)[0]?.profile.name ?? candidates[0]?.name;
  // A toolchain whose check timed out stops the plan before any substitution is looked for: the host
  // is busy, the same task may well run here once it is not (issue 24).
  const planned = (statuses: ToolchainStatus[]) => {
    const p = planSubstitution(substitutionTask, { ...toolchainOpt, config }, statuses);
    if (!p.ok && p.unconfirmed) throw new ToolchainCheckTimedOutError(p.message, p.unconfirmed.profile, loaded.file);
    return p;
  };
  let plan = likely ? planned(await available([likely])) : null;
  if (!plan?.ok || plan.substituted) plan = planned(await available());
  if (!plan.ok) throw new BadInputError(plan.message, loaded.file);
  const chosen = plan.profile;
  // dft_qc: the article's ORCA protocol joins the source; with a substitute, its translation table too.
  const protocol = await protocolForAuthor(store, loaded, plan, config);
  const scaledRequest = (plan.substituted ? plan.rewrittenRequest : request) + (protocol?.requestNote ?? '');
  const substitution: TaskContext['substitution'] = plan.substituted
    ? { substituted: true, original: plan.original, note: plan.note + (protocol?.substitutionNote ?? ''), adaptedLeaves: [] }
    : { substituted: false, adaptedLeaves: [] };
  // The article's TeX when published, else our digest of it (the loader reports the digest's path, not its text).
  const sourceText = loaded.source.found ? loaded.source.text : loaded.digest.found && loaded.digest.path ? await readFile(loaded.digest.path, 'utf8') : undefined;
  const authorSource = [sourceText, protocol?.document].filter((x): x is string => Boolean(x)).join('\n\n');
  const sourceName = sourceText ? (loaded.source.found ? 'source.tex' : 'digest.md') : 'protocol.md';
  const sourceRef = authorSource ? await store.put(authorSource, { name: protocol?.document && sourceText ? `${sourceName}+protocol` : sourceName, mediaType: 'text/plain' }) : undefined;

  const leaves = loaded.rubric.leaves ?? [];
  const adapted = adaptRubricLeaves(leaves.map((l) => ({ index: l.index, issue: l.issue, category: l.category, effectiveWeight: l.effectiveWeight, weight: l.weight })), plan, config);
  const leavesForGrading = adapted.leaves;
  substitution.adaptedLeaves = adapted.adapted.map((x) => ({ index: x.index, from: x.original, to: x.adapted }));
  const rubricAvailable = loaded.rubric.found && leaves.length > 0 && loaded.rubric.normCheck?.ok !== false;
  const cases = <T extends object>(list: T[] | undefined, kind: string) => (list ?? []).map((c, k) => ({ id: `${kind}:${k}`, ...c }));
  const scaled = t.scaled as ScaledSpec | undefined;
  // Limiting cases are small by design (L = 2, a free chain…): the full-size note is not theirs.
  const sized = applyTaskSize(input.size, scaled, scaledRequest, []);
  const finalRequest = sized.request;
  const limitingCases = cases(t.LimitingCases as { content: string; truth: string }[] | undefined, 'limiting');
  const scientificResults = applyTaskSize(input.size, scaled, '', cases(t.ScientificResults as { content: string; truth: string }[] | undefined, 'scientific')).cases;
  const convergenceCases = cases(t.ConvergenceCases as { content: string; parameter: string; criteria: string }[] | undefined, 'convergence');
  // Before any agent is asked anything: no text a script writer reads may carry a truth (limiting cases and scientific results).
  const sourceFile = loaded.source.found ? loaded.source.path : loaded.digest.path;
  assertNoTruthLeak({
    taskFile: loaded.file, request: finalRequest, figure: String(t.subplot_name ?? ''), limitingCases, scientificResults, convergenceCases,
    ...(sourceText && sourceFile ? { source: { file: sourceFile, text: sourceText, kind: loaded.source.found ? ('tex' as const) : ('digest' as const) } } : {}),
  });
  return {
    taskId: loaded.id,
    topic: loaded.topic,
    figure: String(t.subplot_name ?? ''),
    profile: chosen,
    language: JULIA_PROFILES.has(chosen) ? 'julia' : 'python',
    request: finalRequest,
    substitution,
    sourceRef,
    sourceKind: loaded.source.found ? 'tex' : loaded.digest.found ? 'digest' : protocol?.document ? 'protocol' : 'none',
    ...(protocol ? { protocol: protocol.context } : {}),
    rubric: {
      available: rubricAvailable,
      file: loaded.rubric.path ?? undefined,
      leavesRef: rubricAvailable ? await store.putJson(leavesForGrading, 'rubric-leaves.json') : undefined,
      leafCount: leaves.length,
      normCheck: loaded.rubric.normCheck?.ok,
      reason: rubricAvailable ? undefined : loaded.rubric.found ? 'the rubric fails NormCheck' : 'not published for this task: the rubric test is not available',
    },
    limitingCases,
    scientificResults,
    convergenceCases,
    backgroundNames: [],
    ...(sourceFile && !loaded.source.found ? { publishedValues: publishedValues(sourceFile) } : {}),
    ...(Object.keys(scaled?.parameters ?? {}).length
      ? { sizeAsked: { size: sized.note ? ('full' as const) : ('scaled' as const), parameters: Object.entries(scaled!.parameters).map(([name, p]) => ({ name, full: p.full, used: p.used })) } }
      : {}),
    ...(sized.note ? { fullSize: { parameters: Object.entries(scaled?.parameters ?? {}).map(([name, p]) => ({ name, full: p.full, used: p.used })) } } : {}),
  };
}
