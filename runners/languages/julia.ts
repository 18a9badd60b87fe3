// Julia (the paper's ITensors toolchain) when `julia` is on PATH. Packages come from the host's
// depots, read-only; the first depot is private to the run so precompilation has somewhere to write.
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findExecutable } from '../../lib/toolchains/find-executable.js';
import { probeVersion, type RunnerProfile } from './profile.js';

function hostDepots(): string[] {
  const fromEnv = (process.env.JULIA_DEPOT_PATH ?? '').split(path.delimiter).filter(Boolean);
  return fromEnv.length ? fromEnv : [path.join(os.homedir(), '.julia')];
}

export const juliaProfile: RunnerProfile = {
  language: 'julia',
  async resolve() {
    const exe = findExecutable('julia', process.env.PHYSVEC_JULIA_BIN);
    if (!exe) return { available: false, reason: '`julia` is not on PATH (set PHYSVEC_JULIA_BIN to use one elsewhere)' };
    const prefix = path.dirname(path.dirname(realpathSync(exe)));
    const depots = hostDepots();
    const version = await probeVersion(exe, ['--version'], /julia version\s+(\S+)/i);
    return {
      available: true,
      runner: {
        language: 'julia',
        executable: exe,
        version,
        argv: (entry, args) => [exe, '--color=no', '--startup-file=no', '--history-file=no', entry, ...args],
        readPaths: [prefix, ...depots],
        pathDirs: [path.dirname(exe)],
        env: ({ privateDir }) => ({
          // A trailing empty entry keeps Julia's bundled depots (stdlib caches) after ours.
          JULIA_DEPOT_PATH: [path.join(privateDir, 'julia-depot'), ...depots, ''].join(path.delimiter),
          JULIA_PKG_OFFLINE: 'true',
          JULIA_NUM_THREADS: process.env.JULIA_NUM_THREADS ?? '1',
          GKSwstype: '100',
        }),
      },
    };
  },
};
