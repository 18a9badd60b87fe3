// The knowledge base a run retrieves from, pinned at its first retrieve (issue 25.4): the build's
// two files go to the artifact store (content-addressed: stored once however many runs pin them)
// and the run's pin names them, so a `physvec kb build` or a deploy with another KB mid-run does not
// change what the run's agents read — on this worker or any other sharing the store.
import { z } from 'zod';
import { pinnedRead } from '../artifacts/run-pins.js';
import type { RunInputs } from '../artifacts/run-inputs.js';
import { loadKb, type LoadKbOptions } from './search.js';
import { buildFiles, parseKb, readManifest, StoredManifest, type LoadedKb } from './store.js';
import { kbDir } from './paths.js';

const KbPin = z.object({ manifest: StoredManifest, chunks: z.string().regex(/^[0-9a-f]{64}$/), index: z.string().regex(/^[0-9a-f]{64}$/) });
type KbPin = z.infer<typeof KbPin>;

/** Per worker: a build's files already stored (by build dir), and builds read back from the store (by their shas). */
const stored = new Map<string, Promise<KbPin>>();
const loaded = new Map<string, Promise<LoadedKb>>();

async function storeBuild(inputs: RunInputs, kb: LoadedKb, dir: string): Promise<KbPin> {
  const files = buildFiles(kb.manifest, dir);
  const [chunks, index] = [await inputs.store.putFile(files.chunks), await inputs.store.putFile(files.index)];
  return { manifest: kb.manifest, chunks: chunks.sha256, index: index.sha256 };
}

/** The build run `inputs.runKey` first retrieved from (the current one, pinned now, at its first call). */
export async function loadPinnedKb(inputs: RunInputs, opts: LoadKbOptions = {}): Promise<LoadedKb> {
  const dir = opts.dir ?? kbDir();
  let current: LoadedKb | undefined;
  const pinned = await pinnedRead(inputs.store, inputs.runKey, 'knowledge-base', async () => {
    current = await loadKb(opts);
    const key = `${inputs.store.location}\0${dir}\0${current.manifest.buildId}`;
    let pin = stored.get(key);
    if (!pin) {
      stored.set(key, (pin = storeBuild(inputs, current, dir)));
      pin.catch(() => stored.delete(key));
    }
    return Buffer.from(JSON.stringify(await pin));
  });
  const pin = KbPin.parse(JSON.parse(pinned.content.toString('utf8')));
  if (current?.manifest.buildId === pin.manifest.buildId) return current;
  // Still this host's current build (the usual case): the worker's own loaded copy serves it.
  if ((await readManifest(dir))?.buildId === pin.manifest.buildId) return loadKb(opts);
  const key = `${pin.chunks}\0${pin.index}`;
  let kb = loaded.get(key);
  if (!kb) {
    // One pinned build at a time is kept besides the current one: runs started before a rebuild finish within hours.
    for (const k of loaded.keys()) if (k !== key) loaded.delete(k);
    const p = (async () => parseKb(pin.manifest, (await inputs.store.get(pin.chunks)).toString('utf8'), (await inputs.store.get(pin.index)).toString('utf8'), inputs.store.describe(pin.chunks)))();
    loaded.set(key, (kb = p));
    p.catch(() => loaded.delete(key));
  }
  return kb;
}
