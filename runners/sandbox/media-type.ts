import path from 'node:path';

const TYPES: Record<string, string> = {
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.svg': 'image/svg+xml', '.pdf': 'application/pdf',
  '.json': 'application/json', '.csv': 'text/csv', '.txt': 'text/plain', '.log': 'text/plain', '.out': 'text/plain',
  '.dat': 'text/plain', '.py': 'text/x-python', '.jl': 'text/x-julia', '.inp': 'text/plain',
  '.npy': 'application/octet-stream', '.npz': 'application/octet-stream', '.h5': 'application/x-hdf5', '.hdf5': 'application/x-hdf5',
};

export function mediaTypeOf(file: string): string | undefined {
  return TYPES[path.extname(file).toLowerCase()];
}
