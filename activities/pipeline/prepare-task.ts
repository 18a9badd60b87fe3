// Load a task for a reproduction: validate it, pick the toolchain profile (with an explicit
// substitution when the demanded package is absent), store the source and the rubric leaves.
import type { ArtifactStore } from '../artifacts/store.js';
import type { TaskContext } from '../../schemas/pipeline.js';
import { loadTaskFile } from '../../lib/tasks/load-task.js';
import { BadInputError } from '../../lib/errors.js';

const DEFAULT_PROFILE: Record<string, string> = { dmrg: 'tenpy', nqs: 'netket', qsim: 'qiskit', dft: 'pyscf' };
const JULIA_PROFILES = new Set(['itensors']);

export interface PrepareInput {
  taskFile: string;
  datasetRoot?: string;
  toolchain?: string;
}

/** Package demands a task text may carry, and the profile that satisfies them. */
const DEMANDS: { pattern: RegExp; profile: string; name: string }[] = [
  { pattern: /\bITensors?\b|\bITensorMPS\b/i, profile: 'itensors', name: 'ITensors/ITensorMPS (Julia)' },
  { pattern: /\bORCA\b/, profile: 'orca', name: 'ORCA' },
];

export async function prepareTask(store: ArtifactStore, input: PrepareInput, available: (profile: string) => Promise<boolean>): Promise<TaskContext> {
  const loaded = await loadTaskFile(input.taskFile, input.datasetRoot ? { datasetRoot: input.datasetRoot } : {});
  const errors = loaded.problems.filter((p) => p.severity === 'error');
  if (errors.length) throw new BadInputError(errors.map((p) => `${p.file}: ${p.field ?? ''}: ${p.message}`).join('\n'), loaded.file);
  const t = loaded.task as Record<string, unknown> & typeof loaded.task;
  const request = String(t.User_requests ?? '');
  const demanded = DEMANDS.find((d) => d.pattern.test(request));
  const chosen = input.toolchain ?? (t.toolchain as string | undefined) ?? (demanded && (await available(demanded.profile)) ? demanded.profile : undefined) ?? DEFAULT_PROFILE[loaded.topic] ?? 'tenpy';
  let substitution: TaskContext['substitution'] = { substituted: false, adaptedLeaves: [] };
  let finalRequest = request;
  if (demanded && chosen !== demanded.profile) {
    if (!input.toolchain && !(t.toolchain as string | undefined)) {
      throw new BadInputError(
        `${loaded.id} demands ${demanded.name}, which is not installed here; rerun with --toolchain ${DEFAULT_PROFILE[loaded.topic] ?? 'tenpy'} to use the substitute`,
        loaded.file,
      );
    }
    finalRequest = `${request.replace(/You MUST use [^.]*\./gi, '').trim()} You MUST use the ${chosen} toolchain instead of ${demanded.name}, which is not available here.`;
    substitution = { substituted: true, original: demanded.profile, note: `Substitution: ${demanded.name} → ${chosen} (the task demands ${demanded.name}; not installed here)`, adaptedLeaves: [] };
  }
  const sourceText = loaded.source.found ? loaded.source.text : loaded.digest.found ? loaded.digest.text : undefined;
  const sourceRef = sourceText ? await store.put(sourceText, { name: loaded.source.found ? 'source.tex' : 'digest.md', mediaType: 'text/plain' }) : undefined;

  const leaves = loaded.rubric.leaves ?? [];
  let leavesForGrading = leaves.map((l) => ({ index: l.index, issue: l.issue, category: l.category, effectiveWeight: l.effectiveWeight, weight: l.weight }));
  if (substitution.substituted && demanded) {
    leavesForGrading = leavesForGrading.map((l) => {
      const to = l.issue.replace(/ITensors(?:\.jl)?|ITensorMPS(?:\.jl)?/g, chosen);
      if (to !== l.issue) substitution.adaptedLeaves.push({ index: l.index, from: l.issue, to });
      return { ...l, issue: to };
    });
  }
  const rubricAvailable = loaded.rubric.found && leaves.length > 0 && loaded.rubric.normCheck?.ok !== false;
  const cases = <T extends object>(list: T[] | undefined, kind: string) => (list ?? []).map((c, k) => ({ id: `${kind}:${k}`, ...c }));
  return {
    taskId: loaded.id,
    topic: loaded.topic,
    figure: String(t.subplot_name ?? ''),
    profile: chosen,
    language: JULIA_PROFILES.has(chosen) ? 'julia' : 'python',
    request: finalRequest,
    substitution,
    sourceRef,
    sourceKind: loaded.source.found ? 'tex' : loaded.digest.found ? 'digest' : 'none',
    rubric: {
      available: rubricAvailable,
      file: loaded.rubric.path ?? undefined,
      leavesRef: rubricAvailable ? await store.putJson(leavesForGrading, 'rubric-leaves.json') : undefined,
      leafCount: leaves.length,
      normCheck: loaded.rubric.normCheck?.ok,
      reason: rubricAvailable ? undefined : loaded.rubric.found ? 'the rubric fails NormCheck' : 'not published for this task: the rubric test is not available',
    },
    limitingCases: cases(t.LimitingCases as { content: string; truth: string }[] | undefined, 'limiting'),
    scientificResults: cases(t.ScientificResults as { content: string; truth: string }[] | undefined, 'scientific'),
    convergenceCases: cases(t.ConvergenceCases as { content: string; parameter: string; criteria: string }[] | undefined, 'convergence'),
    backgroundNames: [],
  };
}
