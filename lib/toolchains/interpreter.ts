// Where a profile's interpreter lives: a path relative to the repository root (the project venv) or
// a command found on PATH. Returns null when it is not there, which detection reports as "not installed".
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../paths.js';

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

export function resolveInterpreter(interpreter: string, searchPath = process.env.PATH ?? ''): string | null {
  if (interpreter.includes('/')) {
    const file = path.resolve(repoRoot, interpreter);
    return isExecutableFile(file) ? file : null;
  }
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, interpreter);
    if (isExecutableFile(file)) return file;
  }
  return null;
}

/** A probe's argv with `{interpreter}` replaced. */
export function expandArgv(argv: readonly string[], interpreter: string): string[] {
  return argv.map((a) => a.replaceAll('{interpreter}', interpreter));
}
