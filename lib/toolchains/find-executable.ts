// Where a toolchain lives: an explicit override, else the first executable of that name on PATH.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

export function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

export function findExecutable(name: string, override?: string, searchPath = process.env.PATH ?? ''): string | null {
  if (override) return isExecutableFile(override) ? path.resolve(override) : null;
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}
