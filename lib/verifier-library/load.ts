// Reading a profile's verifier library: its index (validated) and the sources it points to.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BadInputError, badInputFromZod } from '../errors.js';
import { getProfile, loadToolchainConfig } from '../toolchains/config.js';
import { indexFile, libraryDir, verifierLibraryRoot } from './paths.js';
import { VerifierIndex, type VerifierEntry } from './index-schema.js';
import type { ToolchainConfig } from '../../schemas/toolchain.js';

export interface LibraryLocation {
  /** Library root (default data/verifier-library). */
  root?: string;
  config?: ToolchainConfig;
  /**
   * Read a library file (its text, or undefined when absent) instead of the checkout: a run reads
   * the library as it pinned it (activities/run-inputs.ts), so a harness built and the same harness
   * judged later are one text whatever was deployed in between.
   */
  read?: (file: string) => string | undefined;
}

function readText(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** The library folder of a profile, or null when the profile has none (ORCA). */
export function libraryFolderOf(profile: string, config: ToolchainConfig = loadToolchainConfig()): string | null {
  return getProfile(profile, config).verifierLibrary;
}

/** The index of a profile's library; [] when the profile has no library or it was never built. */
export function loadVerifierIndex(profile: string, loc: LibraryLocation = {}): VerifierIndex {
  const folder = libraryFolderOf(profile, loc.config);
  if (!folder) return [];
  return readIndexFile(indexFile(folder, loc.root ?? verifierLibraryRoot), loc.read);
}

export function readIndexFile(file: string, read: (file: string) => string | undefined = readText): VerifierIndex {
  const text = read(file);
  if (text === undefined) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new BadInputError(`${file}: not valid JSON (${(err as Error).message}); rebuild it with \`physvec verifier-library build\``, file);
  }
  const parsed = VerifierIndex.safeParse(raw);
  if (!parsed.success) throw badInputFromZod(parsed.error, file);
  return parsed.data;
}

export function readVerifierSource(entry: VerifierEntry, loc: LibraryLocation = {}): string {
  const folder = libraryFolderOf(entry.profile, loc.config);
  if (!folder) throw new BadInputError(`profile ${entry.profile} has no verifier library`);
  const file = path.join(libraryDir(folder, loc.root ?? verifierLibraryRoot), entry.file);
  let text: string | undefined;
  try {
    text = (loc.read ?? readText)(file);
  } catch {
    text = undefined;
  }
  if (text === undefined) {
    throw new BadInputError(`${file}: listed in the index of ${entry.profile} but missing; rebuild with \`physvec verifier-library build --profile ${entry.profile}\``, file);
  }
  return text;
}
