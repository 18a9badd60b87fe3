// The toolchain profiles in data/toolchains.json: loaded once, validated, looked up by name or topic.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BadInputError, badInputFromZod } from '../errors.js';
import { dataDir } from '../paths.js';
import { canonicalTopic, describeKnownTopics } from '../tasks/topics.js';
import { ToolchainConfig, type ToolchainProfile } from '../../schemas/toolchain.js';
import type { Topic } from '../../schemas/task.js';

export const defaultToolchainsFile = path.join(dataDir, 'toolchains.json');

const cache = new Map<string, ToolchainConfig>();

export function loadToolchainConfig(file = defaultToolchainsFile): ToolchainConfig {
  const hit = cache.get(file);
  if (hit) return hit;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new BadInputError(`${file}: cannot read the toolchain profiles: ${(err as Error).message}`, file);
  }
  const config = parseToolchainConfig(text, file);
  cache.set(file, config);
  return config;
}

/** The profiles in `text` (the content of `file`, maybe as a run pinned it: activities/run-inputs.ts). */
export function parseToolchainConfig(text: string, file: string): ToolchainConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new BadInputError(`${file}: cannot read the toolchain profiles: ${(err as Error).message}`, file);
  }
  const parsed = ToolchainConfig.safeParse(raw);
  if (!parsed.success) throw badInputFromZod(parsed.error, file);
  return parsed.data;
}

export function getProfile(name: string, config: ToolchainConfig = loadToolchainConfig()): ToolchainProfile {
  const profile = config.profiles.find((p) => p.name === name);
  if (!profile) {
    throw new BadInputError(`unknown toolchain profile "${name}"; known profiles: ${config.profiles.map((p) => p.name).join(', ')}`);
  }
  return profile;
}

/** A topic in either spelling (dmrg, nqs/nnwf, qsim/qcmb, dft), or BadInputError. */
export function requireTopic(name: string): Topic {
  const topic = canonicalTopic(name);
  if (!topic) throw new BadInputError(`unknown topic "${name}"; known topics: ${describeKnownTopics()}`);
  return topic;
}

/** Profiles serving a topic, the native (paper's) one first. */
export function profilesForTopic(topic: Topic, config: ToolchainConfig = loadToolchainConfig()): ToolchainProfile[] {
  return config.profiles.filter((p) => p.topics.includes(topic));
}

/** Profiles that declare they can stand in for `original`, in config order. */
export function languageLabel(language: ToolchainProfile['language']): string {
  return language === 'python' ? 'Python' : language === 'julia' ? 'Julia' : 'ORCA input';
}
