// Where a profile's interpreter lives: a path relative to the repository root (the project venv) or
// a command found on PATH. Returns null when it is not there, which detection reports as "not installed".
import path from 'node:path';
import { repoRoot } from '../paths.js';
import { findExecutable, isExecutableFile } from './find-executable.js';

export function resolveInterpreter(interpreter: string, searchPath = process.env.PATH ?? ''): string | null {
  if (interpreter.includes('/')) {
    const file = path.resolve(repoRoot, interpreter);
    return isExecutableFile(file) ? file : null;
  }
  return findExecutable(interpreter, undefined, searchPath);
}

/** A probe's argv with `{interpreter}` replaced. */
export function expandArgv(argv: readonly string[], interpreter: string): string[] {
  return argv.map((a) => a.replaceAll('{interpreter}', interpreter));
}
