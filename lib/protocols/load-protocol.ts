// Reads a dft_qc article's protocol file (its ORCA inputs) the way task files are read: UTF-8, BOM and
// Windows line endings allowed, every problem naming the file and the field.
import { OrcaProtocol } from '../../schemas/protocol.js';
import type { Problem } from '../../schemas/task.js';
import { readJsonFile } from '../input-files/json-file.js';
import { validateWith } from '../input-files/zod-problems.js';

/** A protocol file is a few kB of ORCA inputs; anything near this is not one. */
export const PROTOCOL_FILE_MAX_BYTES = 4 * 1024 * 1024;

export interface LoadedProtocol {
  protocol?: OrcaProtocol;
  problems: Problem[];
}

export async function loadProtocolFile(file: string): Promise<LoadedProtocol> {
  const read = await readJsonFile(file, { maxBytes: PROTOCOL_FILE_MAX_BYTES, what: 'protocol file' });
  if (!read.ok) return { problems: [read.problem] };
  const valid = validateWith(OrcaProtocol, read.value, file);
  return valid.ok ? { protocol: valid.data, problems: [] } : { problems: valid.problems };
}
