// Reading a file a sandboxed script controls, as the (root) worker, without following it anywhere:
// the script owns its work dir and could swap a checkpoint file, or the checkpoint dir itself, for a
// symlink to a root-only file whose bytes would then be stored and handed to later runs. The file
// is opened with O_NOFOLLOW and accepted only if what was opened really is `file` (its
// /proc/self/fd link), a regular file with a single link, within `maxBytes`. Large files are
// streamed from that same fd (openConfinedFile), never read whole.
import { constants, promises as fs } from 'node:fs';

type Refusal = { ok: false; reason: 'missing' | 'not-a-regular-file' | 'outside' | 'too-large' | 'unreadable' };
export type ConfinedRead = { ok: true; content: Buffer } | Refusal;
/** An open, checked file: read it from `handle` (and close it). */
type ConfinedOpen = { ok: true; handle: fs.FileHandle; size: number } | Refusal;

/** `file` as the worker made its directories; `realFile` the same path with the worker's own symlinks resolved. */
export async function openConfinedFile(file: string, maxBytes: number, realFile = file): Promise<ConfinedOpen> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'ENOENT' ? 'missing' : code === 'ELOOP' ? 'not-a-regular-file' : 'unreadable' };
  }
  const refuse = async (reason: Refusal['reason']): Promise<Refusal> => {
    await handle.close().catch(() => undefined);
    return { ok: false, reason };
  };
  try {
    const real = await fs.readlink(`/proc/self/fd/${handle.fd}`).catch(() => null);
    if (real !== null && real !== realFile) return await refuse('outside');
    const st = await handle.stat();
    if (!st.isFile() || st.nlink !== 1) return await refuse('not-a-regular-file');
    if (st.size > maxBytes) return await refuse('too-large');
    return { ok: true, handle, size: st.size };
  } catch {
    return refuse('unreadable');
  }
}

/** A small file's whole content (progress files); see openConfinedFile. */
export async function readConfinedFile(file: string, maxBytes: number, realFile = file): Promise<ConfinedRead> {
  const opened = await openConfinedFile(file, maxBytes, realFile);
  if (!opened.ok) return opened;
  try {
    const content = await opened.handle.readFile();
    if (content.length > maxBytes) return { ok: false, reason: 'too-large' };
    return { ok: true, content };
  } catch {
    return { ok: false, reason: 'unreadable' };
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
}
