// What can be checked before a workflow starts is checked before it starts (nothing that is bad
// input may start one): the dataset root, agent role names, the scripted model's cassettes (exist,
// parse, answer the calls this framework makes first) and the toolchain the task will run with.
// Each check throws a BadInputError naming the flag, file or field and the fix.
import { statSync } from 'node:fs';
import type { PhysvecConfig } from '../../schemas/config.js';
import type { Topic } from '../../schemas/task.js';
import type { ToolchainConfig, ToolchainStatus } from '../../schemas/toolchain.js';
import { BadInputError } from '../../lib/errors.js';
import { AgentRole, PipelineRole } from '../../schemas/agent-roles.js';
import { configPath, parseRoleModelFlag } from '../../lib/config.js';
import { isScriptedModel, parseModelId } from '../../lib/llm/model-id.js';
import { CassetteError, findEntry, loadCassette, resolveCassettePath } from '../../activities/llm/cassette.js';
import { planSubstitution } from '../../lib/toolchains/substitution.js';
import { loadToolchainConfig, profilesForTopic } from '../../lib/toolchains/config.js';
import { detectToolchains } from '../../activities/toolchains/detect.js';

/** Every agent role a workflow asks a model (the PhysVEC pipeline's, then the ReAct baselines'): schemas/agent-roles.ts. */
export const PIPELINE_ROLES = PipelineRole.options;
export const KNOWN_ROLES: readonly string[] = AgentRole.options;

/** The calls a framework makes whatever the script does: a cassette without them cannot get a run started. */
export const FIRST_CALLS: Record<string, ReadonlyArray<{ role: string; stage: string; iteration: number }>> = {
  physvec: [
    { role: 'author', stage: 'author', iteration: 0 },
    { role: 'coder', stage: 'author', iteration: 0 },
  ],
  react: [{ role: 'coder', stage: 'author', iteration: 0 }],
  'react-rag': [{ role: 'coder', stage: 'author', iteration: 0 }],
  '1-shot': [{ role: 'coder', stage: 'author', iteration: 0 }],
};

export function checkDatasetRoot(root: string | undefined): void {
  if (root === undefined) return;
  let isDir = false;
  try {
    isDir = statSync(root).isDirectory();
  } catch {
    /* missing */
  }
  if (!isDir) throw new BadInputError(`--dataset ${root}: not a directory; give the dataset root the task belongs to (the folder holding <topic>/tasks/), or leave --dataset out`, root, 'dataset');
}

function unknownRole(role: string, where: string): BadInputError {
  return new BadInputError(`${where}: unknown agent role "${role}"; known roles: ${KNOWN_ROLES.join(', ')}`);
}

/** `--role-model` role names and the config file's `llm.roles` keys must be roles some workflow asks. */
export function checkRoleNames(config: PhysvecConfig, roleModelFlags: readonly string[] = []): void {
  for (const role of Object.keys(config.llm.roles)) {
    if (!KNOWN_ROLES.includes(role)) throw unknownRole(role, `${configPath()}: llm.roles.${role}`);
  }
  for (const flag of roleModelFlags) {
    const { role } = parseRoleModelFlag(flag);
    if (!KNOWN_ROLES.includes(role)) throw unknownRole(role, `--role-model ${flag}`);
  }
}

/**
 * A scripted model's cassette exists, parses and answers `calls` (the ones made whatever happens);
 * `model` is the role's model string, `role` the role whose model it is (null: the default model).
 */
export function checkCassette(model: string, cassettesDir: string, calls: ReadonlyArray<{ role: string; stage: string; iteration: number }>, where: string): void {
  if (!isScriptedModel(model)) return;
  const file = resolveCassettePath(parseModelId(model).model, cassettesDir);
  let cassette;
  try {
    cassette = loadCassette(file);
  } catch (err) {
    if (err instanceof CassetteError) throw new BadInputError(`${where} "${model}": ${err.message.replace(/^scripted model: /, '').split('\n').join('; ')}`, file);
    throw err;
  }
  for (const c of calls) {
    if (!findEntry(cassette, { ...c, seq: 0 })) {
      throw new BadInputError(
        `${where} "${model}": cassette ${file} has no entry for role "${c.role}", stage "${c.stage}", iteration ${c.iteration} — the first call this run makes; ` +
          'add one, or export a cassette from a run that made it (`physvec cassette export <workflow-id>`)',
        file,
      );
    }
  }
}

/** Every scripted model the run uses, checked for the first calls of `framework` made by the role that uses it. */
export function checkScriptedModels(config: PhysvecConfig, framework: keyof typeof FIRST_CALLS, whereOf: (role: string) => string): void {
  const calls = FIRST_CALLS[framework] ?? [];
  for (const call of calls) {
    const model = config.llm.roles[call.role] ?? config.llm.defaultModel;
    checkCassette(model, config.llm.cassettesDir, [call], whereOf(call.role));
  }
  // A scripted model named for a role whose calls depend on the run: at least it must exist and parse.
  for (const [role, model] of Object.entries(config.llm.roles)) checkCassette(model, config.llm.cassettesDir, [], whereOf(role));
  checkCassette(config.llm.defaultModel, config.llm.cassettesDir, [], whereOf(''));
}

export interface ToolchainCheck {
  profile: string;
  /** Set when another toolchain stands in for the one the task asks for. */
  substitutionNote?: string;
  /**
   * Set when the toolchain could not be confirmed (its check timed out on a busy host): the run
   * starts anyway and the worker's prepare step checks again; a timeout is not bad input (issue 24).
   */
  warning?: string;
}

/**
 * The toolchain the run will use, planned as the worker's prepare step plans it, from detection on
 * this host: an absent demanded package without `--toolchain <substitute>` stops here, with the rerun
 * hint; one whose check timed out is a warning, not a stop.
 */
export async function checkToolchain(
  task: { id: string; topic: Topic; request: string; toolchain?: string },
  flag: string | undefined,
  /** Detection of `profiles` (default: probe them on this host now); tests pass fixed statuses. */
  detect: (config: ToolchainConfig, profiles: string[]) => Promise<ToolchainStatus[]> = (config, profiles) => detectToolchains({ config, profiles }),
): Promise<ToolchainCheck> {
  const config = loadToolchainConfig();
  if (flag !== undefined && !config.profiles.some((p) => p.name === flag)) {
    throw new BadInputError(`--toolchain ${flag}: unknown toolchain profile; known: ${config.profiles.map((p) => p.name).join(', ')} (\`physvec toolchains\` shows which are installed)`, undefined, 'toolchain');
  }
  const wanted = flag ?? task.toolchain;
  const profiles = [...new Set([...profilesForTopic(task.topic, config).map((p) => p.name), ...(wanted ? [wanted] : [])])];
  const available = await detect(config, profiles);
  let plan;
  try {
    plan = planSubstitution({ User_requests: task.request, topic: task.topic, id: task.id }, { toolchain: wanted, config }, available);
  } catch (err) {
    if (err instanceof BadInputError) throw new BadInputError(`${flag !== undefined ? `--toolchain ${flag}` : `${task.id}: toolchain`}: ${err.message}`);
    throw err;
  }
  if (!plan.ok && plan.unconfirmed) {
    const { profile, reason } = plan.unconfirmed;
    return { profile, warning: `could not confirm the toolchain ${profile} (${reason}); the run starts anyway and the worker checks again` };
  }
  if (!plan.ok) throw new BadInputError(flag !== undefined || !task.toolchain ? plan.message : `${task.id}: toolchain "${task.toolchain}": ${plan.message}`);
  return { profile: plan.profile, substitutionNote: plan.substituted ? plan.note : undefined };
}
