import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { parseScript } from './runners/structure/parse-script.js';
import { buildIntegrationLevels } from './runners/harness/integration-levels.js';
mkdirSync('/tmp/lv', { recursive: true });
for (const [f, run] of [['numpy_tfim_exact.py', 'run_tfim_ground_state'], ['pyscf_h2_dissociation.py', 'run_h2_point'], ['qiskit_tfim_quench.py', 'run_quench_dynamics']]) {
  const s = parseScript(readFileSync('tests/fixtures/scripts/' + f, 'utf8'), 'python');
  for (const l of buildIntegrationLevels(s, run)) {
    writeFileSync('/tmp/lv/' + l.fileName, l.source);
    try {
      const out = execFileSync('/work/main/.venv/bin/python', ['/tmp/lv/' + l.fileName], { cwd: '/tmp/lv', encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      console.log(l.fileName, out.includes(l.successMarker) ? 'OK' : 'NO MARKER: ' + out);
    } catch (e: any) { console.log(l.fileName, 'FAIL', String(e.stderr ?? e.message).slice(-500)); }
  }
}
