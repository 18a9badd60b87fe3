// Which installed Python packages feed the corpus, per toolchain. Julia ITensors and ORCA have no
// introspectable Python API: their documentation comes in as manuals (see data/kb/manual/README.md).
import type { KbToolchain } from '../../schemas/kb.js';

export interface PythonSource {
  toolchain: KbToolchain;
  /** `import_name=distribution` pairs (distribution defaults to the import name). */
  packages: string[];
}

export const PYTHON_SOURCES: PythonSource[] = [
  { toolchain: 'tenpy', packages: ['tenpy=physics-tenpy'] },
  { toolchain: 'netket', packages: ['netket'] },
  { toolchain: 'qiskit', packages: ['qiskit', 'qiskit_aer=qiskit-aer'] },
  { toolchain: 'pyscf', packages: ['pyscf'] },
];

export function distributionOf(spec: string): string {
  const [importName, dist] = spec.split('=');
  return dist ?? importName!;
}

/**
 * Per-toolchain caps. The largest here, pyscf, has ~8.3k public symbols (methods included, ~2.4k of
 * them undocumented), qiskit + aer ~4.5k; the symbol cap bounds a future much larger package without
 * cutting today's ones (undocumented symbols are dropped first), and the docstring cap keeps one
 * reference page (some qiskit module docstrings are) from dominating.
 */
export const INTROSPECT_LIMITS = {
  maxSymbols: 10000,
  maxDocChars: 12000,
  /** Seconds per toolchain before the walk stops and reports itself truncated. */
  timeBudgetSeconds: 90,
} as const;
