// Where each profile's verifier library lives.
import path from 'node:path';
import { dataDir } from '../paths.js';

export const verifierLibraryRoot = path.join(dataDir, 'verifier-library');

export function libraryDir(folder: string, root = verifierLibraryRoot): string {
  return path.join(root, folder);
}

export function indexFile(folder: string, root = verifierLibraryRoot): string {
  return path.join(libraryDir(folder, root), 'index.json');
}

export const LANGUAGE_EXTENSION = { python: '.py', julia: '.jl' } as const;
