// What an activity of a run reads from the checkout, as the run pinned it (issue 25.4): the
// toolchain profiles and a profile's verifier library (the knowledge base: lib/kb/pinned.ts; the
// prepared task: activities/pipeline/index.ts; the cassette: activities/llm/cassette.ts). Outside a
// workflow (CLI commands, tests of one step) there is no run: the checkout is read as before.
import { Context } from '@temporalio/activity';
import path from 'node:path';
import { pinnedFile, pinnedTree, type RunInputs } from '../lib/artifacts/run-inputs.js';
import type { ArtifactStore } from '../lib/artifacts/store.js';
import { defaultToolchainsFile, getProfile, loadToolchainConfig, parseToolchainConfig } from '../lib/toolchains/config.js';
import { libraryDir, verifierLibraryRoot } from '../lib/verifier-library/paths.js';
import type { LibraryLocation } from '../lib/verifier-library/load.js';
import type { ToolchainConfig } from '../schemas/toolchain.js';

/** The run of the activity executing now (its workflow id), or undefined outside an activity. */
export function runInputsNow(store: ArtifactStore): RunInputs | undefined {
  let runKey: string | undefined;
  try {
    runKey = Context.current().info.workflowExecution?.workflowId;
  } catch {
    return undefined;
  }
  return runKey ? { store, runKey } : undefined;
}

/** Where the run-read files are (tests point them at copies they may change). */
export interface InputFiles {
  toolchains?: string;
  verifierLibraryRoot?: string;
}

const parsed = new Map<string, ToolchainConfig>();

/** The toolchain profiles the run first read (parsed once per content per worker). */
export async function runToolchains(inputs: RunInputs | undefined, files: InputFiles = {}): Promise<ToolchainConfig> {
  const file = files.toolchains ?? defaultToolchainsFile;
  if (!inputs) return loadToolchainConfig(file);
  const pinned = await pinnedFile(inputs, file, 'toolchains');
  let config = parsed.get(pinned.sha256);
  if (!config) parsed.set(pinned.sha256, (config = parseToolchainConfig(pinned.content.toString('utf8'), file)));
  return config;
}

/**
 * Where a profile's verifier library is read from for the run: its folder as the run first read it
 * (one snapshot of index and sources), with the profiles the run pinned.
 */
export async function runVerifierLibrary(inputs: RunInputs | undefined, profile: string, files: InputFiles = {}): Promise<LibraryLocation> {
  const config = await runToolchains(inputs, files);
  const root = files.verifierLibraryRoot ?? verifierLibraryRoot;
  const folder = config.profiles.some((p) => p.name === profile) ? getProfile(profile, config).verifierLibrary : null;
  if (!inputs || !folder) return { config, root };
  const dir = libraryDir(folder, root);
  const snapshot = await pinnedTree(inputs, dir, 'verifier-library');
  return { config, root, read: (file) => snapshot.get(path.relative(dir, file)) };
}
