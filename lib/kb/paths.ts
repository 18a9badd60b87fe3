// Where the knowledge base lives: the built index under the state directory (rebuildable, not
// committed), the manual folders it reads, and the committed labelled query set.
import path from 'node:path';
import { dataDir, repoRoot, stateDir } from '../paths.js';

/** PHYSVEC_KB_DIR lets processes with state dirs of their own share one built index (the test runner's files do). */
export function kbDir(): string {
  return path.resolve(process.env.PHYSVEC_KB_DIR ?? path.join(stateDir(), 'kb'));
}

/** Committed manuals shipped with physvec (README.md at its root explains the folder and is not indexed). */
export const projectManualDir = path.join(dataDir, 'kb', 'manual');

/** Project folder plus the user's folders from PHYSVEC_KB_MANUALS (path-delimiter separated). */
export function manualDirs(): string[] {
  const user = (process.env.PHYSVEC_KB_MANUALS ?? '')
    .split(path.delimiter)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => path.resolve(p));
  return [projectManualDir, ...user.filter((p) => p !== projectManualDir)];
}

export const labelledQueriesFile = path.join(dataDir, 'kb', 'queries.json');
export const introspectScript = path.join(repoRoot, 'runners', 'kb', 'introspect.py');
/** Every file the introspection runs from (the entry and the griffe helper it imports), shipped side by side. */
/** The child-process end of lib/kb/build-in-child.ts (it runs introspection, so it lives beside it). */
export const buildChildEntry = path.join(repoRoot, 'runners', 'kb', 'build-child.ts');
export const introspectFiles = ['introspect.py', 'static_docs.py'].map((f) => path.join(repoRoot, 'runners', 'kb', f));
