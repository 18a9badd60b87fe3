// Loads physvec.config.json (or $PHYSVEC_CONFIG), validates it, and applies the CLI's per-run
// overrides. Not workflow-safe (reads files): workflows get the resolved models and budgets in their input.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BadInputError, badInputFromZod } from './errors.js';
import { repoRoot } from './paths.js';
import { MAX_DEADLINE_HOURS, PhysvecConfig } from '../schemas/config.js';
import { ModelId } from '../schemas/llm.js';
import { parseModelId } from './llm/model-id.js';

export function configPath(): string {
  return path.resolve(process.env.PHYSVEC_CONFIG ?? path.join(repoRoot, 'physvec.config.json'));
}

/** Read and validate the config file; every model string must name a known provider. */
export function loadConfig(file: string = configPath()): PhysvecConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new BadInputError(`${file}: cannot read the configuration (${(err as Error).message}); set PHYSVEC_CONFIG to a valid file or restore physvec.config.json`, file);
  }
  return validateConfig(raw, file);
}

export function validateConfig(raw: unknown, file = '(config)'): PhysvecConfig {
  const parsed = PhysvecConfig.safeParse(raw);
  if (!parsed.success) throw badInputFromZod(parsed.error, file);
  const config = parsed.data;
  assertKnownProvider(config, config.llm.defaultModel, `${file}: llm.defaultModel`);
  for (const [role, model] of Object.entries(config.llm.roles)) assertKnownProvider(config, model, `${file}: llm.roles.${role}`);
  return config;
}

export function knownProviders(config: PhysvecConfig): string[] {
  return ['scripted', ...Object.keys(config.llm.providers)];
}

export function assertKnownProvider(config: PhysvecConfig, model: string, where: string): void {
  const id = ModelId.safeParse(model);
  if (!id.success) throw new BadInputError(`${where}: "${model}" is not ${id.error.issues[0]?.message}`);
  const { provider } = parseModelId(model);
  if (!knownProviders(config).includes(provider)) {
    throw new BadInputError(
      `${where}: unknown provider "${provider}" in "${model}"; known: ${knownProviders(config).join(', ')} (add it under llm.providers in ${configPath()})`,
    );
  }
}

/** The model an agent role uses: its own entry in llm.roles, else llm.defaultModel. */
export function roleModel(config: PhysvecConfig, role: string): string {
  return config.llm.roles[role] ?? config.llm.defaultModel;
}

/** Every distinct model the given roles would use (for the credential check before a run). */
export function modelsForRoles(config: PhysvecConfig, roles: readonly string[]): string[] {
  return [...new Set([config.llm.defaultModel, ...roles.map((r) => roleModel(config, r))])];
}

export interface CliOverrides {
  /** --model: every role uses it (role entries of the file are dropped), then --role-model applies. */
  model?: string;
  /** --role-model <role>=<provider:model>, repeatable. */
  roleModel?: readonly string[];
  budgetTokens?: number;
  budgetUsd?: number;
  /** --deadline-hours: how long after its start the run's LLM calls keep retrying a provider outage. */
  deadlineHours?: number;
}

/** A new config with the CLI's flags applied; a bad flag is a BadInputError naming it. */
export function applyCliOverrides(config: PhysvecConfig, o: CliOverrides): PhysvecConfig {
  const llm = { ...config.llm, roles: { ...config.llm.roles } };
  if (o.model !== undefined) {
    assertKnownProvider(config, o.model, '--model');
    llm.defaultModel = o.model;
    llm.roles = {};
  }
  for (const flag of o.roleModel ?? []) {
    const { role, model } = parseRoleModelFlag(flag);
    assertKnownProvider(config, model, `--role-model ${flag}`);
    llm.roles[role] = model;
  }
  const budget = { ...config.budget };
  if (o.budgetTokens !== undefined) {
    if (!Number.isInteger(o.budgetTokens) || o.budgetTokens <= 0) throw new BadInputError(`--budget-tokens: expected a positive whole number, got ${o.budgetTokens}`);
    budget.maxTokens = o.budgetTokens;
  }
  if (o.budgetUsd !== undefined) {
    if (!Number.isFinite(o.budgetUsd) || o.budgetUsd <= 0) throw new BadInputError(`--budget-usd: expected a positive number of dollars, got ${o.budgetUsd}`);
    budget.maxUsd = o.budgetUsd;
  }
  if (o.deadlineHours !== undefined) {
    if (!Number.isFinite(o.deadlineHours) || o.deadlineHours <= 0 || o.deadlineHours > MAX_DEADLINE_HOURS) throw new BadInputError(`--deadline-hours: expected a positive number of hours up to ${MAX_DEADLINE_HOURS}, got ${o.deadlineHours}`);
    budget.deadlineHours = o.deadlineHours;
  }
  return { ...config, llm, budget };
}

export function parseRoleModelFlag(flag: string): { role: string; model: string } {
  const eq = flag.indexOf('=');
  if (eq <= 0 || eq === flag.length - 1) {
    throw new BadInputError(`--role-model ${flag}: expected <role>=<provider:model>, e.g. --role-model author=openai:gpt-5.1`);
  }
  return { role: flag.slice(0, eq).trim(), model: flag.slice(eq + 1).trim() };
}
