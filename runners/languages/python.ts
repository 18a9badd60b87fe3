// Python runs on the project venv (numpy, scipy, tenpy, netket, qiskit, pyscf are installed there).
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { venvDir, venvPython } from '../../lib/paths.js';
import { findExecutable } from '../../lib/toolchains/find-executable.js';
import { probeVersion, type RunnerProfile } from './profile.js';
import { PYTHON_RUNTIME_DIR } from '../sandbox/run-state/paths.js';

export const pythonProfile: RunnerProfile = {
  language: 'python',
  async resolve() {
    const exe = findExecutable('python', venvPython);
    if (!exe) return { available: false, reason: `the project venv's python is missing at ${venvPython} (run scripts/bootstrap.sh)` };
    // The venv's python is a symlink into the base installation (e.g. pyenv under /root), which
    // the unprivileged user must also be able to read.
    const basePrefix = path.dirname(path.dirname(realpathSync(exe)));
    const version = await probeVersion(exe, ['--version'], /Python\s+(\S+)/);
    return {
      available: true,
      runner: {
        language: 'python',
        executable: exe,
        version,
        argv: (entry, args) => [exe, '-u', entry, ...args],
        // The physvec_runtime package (progress, checkpoints) is importable, read-only.
        readPaths: [venvDir, basePrefix, PYTHON_RUNTIME_DIR],
        pathDirs: [path.dirname(exe)],
        env: ({ privateDir }) => ({
          PYTHONPATH: PYTHON_RUNTIME_DIR,
          PYTHONUNBUFFERED: '1',
          PYTHONDONTWRITEBYTECODE: '1',
          PYTHONNOUSERSITE: '1',
          MPLBACKEND: 'Agg',
          MPLCONFIGDIR: path.join(privateDir, 'matplotlib'),
          // The same numbers give the same figure bytes (issue 25.6): no creation date in SVG/PDF/EPS
          // metadata, and SVG ids hashed with a fixed salt (runtime/python/matplotlibrc), so a run
          // resumed from a checkpoint can be compared with the uninterrupted one by the figure's sha.
          MATPLOTLIBRC: path.join(PYTHON_RUNTIME_DIR, 'matplotlibrc'),
          SOURCE_DATE_EPOCH: '0',
          NUMBA_CACHE_DIR: path.join(privateDir, 'numba'),
          JAX_PLATFORMS: 'cpu',
        }),
      },
    };
  },
};
