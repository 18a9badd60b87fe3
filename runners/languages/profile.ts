// A runner profile says how to start one toolchain inside the sandbox: the argv, the directories
// its installation needs to be readable by the unprivileged user, and the environment it needs.
import { execFile } from 'node:child_process';
import type { SandboxLanguage } from '../../schemas/sandbox.js';

/** Where the sandbox puts a run's files, as seen by the script. */
export interface RunDirs {
  workDir: string;
  /** The sandbox's own scratch inside the work dir (caches, depots), never collected. */
  privateDir: string;
}

export interface ResolvedRunner {
  language: SandboxLanguage;
  executable: string;
  version: string | null;
  argv(entry: string, args: readonly string[]): string[];
  /** Install prefixes and package depots the script's user must be able to read. */
  readPaths: string[];
  /** Put first on the script's PATH. */
  pathDirs: string[];
  env(dirs: RunDirs): Record<string, string>;
}

export type RunnerResolution = { available: true; runner: ResolvedRunner } | { available: false; reason: string };

export interface RunnerProfile {
  language: SandboxLanguage;
  resolve(): Promise<RunnerResolution>;
}

/** First line of `<exe> <args>` matching `pattern` (or the first line), null if the tool won't say. */
export function probeVersion(exe: string, args: string[], pattern?: RegExp): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(exe, args, { timeout: 15_000, maxBuffer: 1 << 20 }, (_err, stdout, stderr) => {
      const text = `${stdout ?? ''}\n${stderr ?? ''}`;
      if (pattern) {
        const m = pattern.exec(text);
        resolve(m ? (m[1] ?? m[0]).trim() : null);
      } else {
        resolve(text.split('\n').map((l) => l.trim()).find(Boolean) ?? null);
      }
    });
  });
}
