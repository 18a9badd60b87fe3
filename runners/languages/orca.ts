// ORCA (quantum chemistry) when `orca` is on PATH. ORCA wants to be started by its full path and
// finds its helper programs (orca_scf, …) beside it, so its directory goes first on PATH.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { findExecutable } from '../../lib/toolchains/find-executable.js';
import { probeVersion, type RunnerProfile } from './profile.js';

export const orcaProfile: RunnerProfile = {
  language: 'orca',
  async resolve() {
    const exe = findExecutable('orca', process.env.PHYSVEC_ORCA_BIN);
    if (!exe) return { available: false, reason: '`orca` is not on PATH (set PHYSVEC_ORCA_BIN to use one elsewhere)' };
    const real = realpathSync(exe);
    const version = await probeVersion(exe, ['--version'], /Program Version\s+(\S+)/i);
    return {
      available: true,
      runner: {
        language: 'orca',
        executable: real,
        version,
        argv: (entry, args) => [real, entry, ...args],
        readPaths: [path.dirname(real)],
        pathDirs: [path.dirname(real)],
        env: () => ({}),
      },
    };
  },
};
