// The paper's benchmark metrics as computed from a campaign's run records (Sec. III, Figs. 5-7).
import type { Framework } from '../../schemas/campaign.js';

/** The iteration limit of the Programming verifier: S is pass@8 and Fig. 5d runs k = 1..8. */
export const MAX_ITERATIONS = 8;

export type PassCriterion = 'executable' | 'scientific';

/** Metrics of one group of runs. `topic` or `model` is '*' in the aggregated views. */
export interface GroupMetrics {
  topic: string;
  model: string;
  framework: Framework;
  /** Runs that happened (done or error); skipped runs (early stop) are not counted anywhere below. */
  runs: number;
  skipped: number;
  /** Distinct tasks among the runs. */
  tasks: number;
  executable: number;
  /** Executability S: executable / runs (pass@8); null when no run happened. */
  S: number | null;
  /** Mean unit-test accuracy over runs that have one (nulls ignored); null when none has. */
  unitAccuracy: number | null;
  /** Mean integration-test accuracy over runs that have one (nulls ignored). */
  integrationAccuracy: number | null;
  /** Fig. 5d: entry k-1 = share of runs with executableAtIteration <= k, k = 1..8. */
  executabilityByIteration: number[];
  /** Means per run over runs with metrics (T_i, T_o, T_c, dollars, wall ms); null when none. */
  tokensIn: number | null;
  tokensOut: number | null;
  toolCalls: number | null;
  costUsd: number | null;
  wallMs: number | null;
  totalCostUsd: number;
  totalWallMs: number;
  /** Runs and distinct tasks with physically valid results (scientificCompleted). */
  completedRuns: number;
  completedTasks: number;
}

/** Fig. 6c: share of tasks with at least one pass among trials 1..N, per (model, framework). */
export interface PassAtN {
  model: string;
  framework: Framework;
  tasks: number;
  /** Entry N-1 for N = 1..maxTrials. */
  passRate: number[];
}

/** Fig. 7: tasks with physically valid results per (model, framework). */
export interface CompletedTasks {
  model: string;
  framework: Framework;
  tasks: number;
  completed: number;
  /** Fig. 7b: entry k-1 = tasks completed by Scientific-verifier iteration <= k (runs that report it). */
  byScientificIteration: number[];
}

export interface CampaignMetrics {
  passCriterion: PassCriterion;
  topics: string[];
  models: string[];
  frameworks: Framework[];
  /** topic × model × framework (Fig. 5a, 6a). */
  groups: GroupMetrics[];
  /** model × framework over all topics (topic '*'). */
  byModelFramework: GroupMetrics[];
  /** topic × framework over all models (model '*'; Fig. 5d). */
  byTopicFramework: GroupMetrics[];
  passAtN: PassAtN[];
  completed: CompletedTasks[];
  totals: {
    planned: number | null;
    recorded: number;
    runs: number;
    skipped: number;
    errors: number;
    tokensIn: number;
    tokensOut: number;
    toolCalls: number;
    costUsd: number;
    runWallMs: number;
    scripted: boolean;
  };
}
