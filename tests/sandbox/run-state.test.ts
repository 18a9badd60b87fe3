// physvec_runtime in the sandbox, on the cold and the warm start: progress values and checkpoint
// files reach the heartbeat details (snapshots stored only when changed), a second attempt gets the
// checkpoint back before its script starts, a script that swaps its checkpoint for a symlink to a
// root-only file stores nothing of it, and a script that does not use the runtime runs as before.
// run-tests: mostly waits (alone, ~7 % of two cores), so it also runs beside the CPU-bound files (scripts/run-tests.ts).
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { runSandboxed, warmUpSandbox } from '../../runners/sandbox/index.js';
import { RunStateWatcher } from '../../runners/sandbox/run-state/index.js';
import { CheckpointManifest, type RunStateDetails } from '../../schemas/run-state.js';
import { testStore, useTestStateDir } from '../fixtures/hostile/harness.js';

useTestStateDir();
const store = testStore();

// Counts up from the checkpoint (0 on a first run), saving after each step; reports progress.
const COUNTER = `
import time
import physvec_runtime as pv
state = pv.load_json("state.json", default={"step": 0})
print("RESUMED", pv.resumed(), state["step"], flush=True)
start = state["step"]
for step in range(start + 1, start + 4):
    state["step"] = step
    pv.save_json("state.json", state)
    pv.save_bytes("constant.bin", b"same every time")
    pv.progress(step=step, of=start + 3, E=-1.5 * step, phase="counting")
    time.sleep(0.7)
print("DONE", state["step"])
`;

async function attempt(script: string, previous: RunStateDetails, attemptNo: number): Promise<{ stdout: string; details: RunStateDetails; beats: RunStateDetails[]; start: string | undefined }> {
  const watcher = new RunStateWatcher(store, previous);
  const beats: RunStateDetails[] = [];
  const result = await runSandboxed(
    { language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: script }], timeoutMs: 120_000 },
    {
      store,
      heartbeatMs: 250,
      beforeStart: async ({ privateDir }) => void (await watcher.attach(privateDir, attemptNo)),
      onHeartbeat: () => void watcher.poll().then(() => beats.push(watcher.details())),
    },
  );
  assert.equal(result.exitCode, 0, result.stderrTail);
  await watcher.poll();
  return { stdout: result.stdoutTail, details: watcher.details(), beats, start: result.start?.path };
}

/**
 * One run whose only snapshots come from the checkpoint watch (no heartbeat tick falls inside it:
 * every 10 min); the details each watch-triggered snapshot produced, in order.
 */
async function watchedRun(script: string, onSnapshot?: (beats: RunStateDetails[], workDir: string) => void): Promise<RunStateDetails[]> {
  const watcher = new RunStateWatcher(store, {});
  const beats: RunStateDetails[] = [];
  const result = await runSandboxed(
    { language: 'python', entry: 'main.py', files: [{ path: 'main.py', content: script }], timeoutMs: 60_000 },
    {
      store,
      heartbeatMs: 600_000,
      beforeStart: async ({ privateDir, workDir }) => {
        await watcher.attach(privateDir, 1);
        watcher.watchCheckpoints(() => {
          beats.push(watcher.details());
          onSnapshot?.(beats, workDir);
        });
      },
    },
  );
  watcher.close();
  assert.equal(result.exitCode, 0, result.stderrTail);
  return beats;
}

for (const warm of [false, true]) {
  describe(`physvec_runtime in the sandbox (${warm ? 'warm' : 'cold'} start)`, () => {
    before(async () => {
      process.env.PHYSVEC_SANDBOX_WARM = warm ? '1' : '0';
      if (warm) await warmUpSandbox();
    });

    test('progress and checkpoints reach the details; a second attempt resumes from them', { timeout: 180_000 }, async () => {
      const first = await attempt(COUNTER, {}, 1);
      if (warm) assert.equal(first.start, 'warm', 'the warm variant really started warm');
      assert.match(first.stdout, /RESUMED False 0/);
      assert.match(first.stdout, /DONE 3/);
      const live = first.beats.find((b) => b.progress?.values.phase === 'counting');
      assert.ok(live, `a heartbeat carried the script's progress: ${JSON.stringify(first.beats.slice(-2))}`);
      assert.equal(first.details.progress?.values.step, 3);
      const cp = first.details.checkpoint!;
      assert.ok(cp, 'a checkpoint was taken');
      assert.equal(cp.files, 2);
      const manifest = CheckpointManifest.parse(await store.getJson(cp.manifest));
      assert.deepEqual(manifest.files.map((f) => f.name), ['constant.bin', 'state.json']);
      assert.deepEqual(JSON.parse(await store.getText(manifest.files[1]!.ref)), { step: 3 });
      // The constant file was rewritten every step but stored once; state.json once per observed change.
      assert.ok(cp.uploads >= 2 && cp.uploads <= 4, `uploads ${cp.uploads}`);

      const second = await attempt(COUNTER, first.details, 2);
      assert.match(second.stdout, /RESUMED True 3/, 'the second attempt found the first one\'s checkpoint');
      assert.match(second.stdout, /DONE 6/);
      assert.equal(second.details.checkpoint?.restoredAtAttempt, 2);
      assert.ok(second.details.checkpoint!.uploads > cp.uploads, 'uploads are counted over attempts');
    });

    test('a checkpoint swapped for a symlink to a root-only file stores nothing of it', { timeout: 120_000 }, async () => {
      const secretDir = mkdtempSync(path.join(os.tmpdir(), 'physvec-secret-'));
      const secret = path.join(secretDir, 'secret.txt');
      writeFileSync(secret, 'TOP-SECRET-CONTENT', { mode: 0o600 });
      const script = `
import os, time
import physvec_runtime as pv
d = pv.checkpoint_dir()
pv.save_json("ok.json", {"a": 1})
os.symlink(${JSON.stringify(secret)}, d / "link.txt")
os.rename(d, str(d) + "-real")
os.symlink(${JSON.stringify(secretDir)}, str(d))
time.sleep(1.5)
`;
      const run = await attempt(script, {}, 1);
      const entries = run.details.checkpoint ? CheckpointManifest.parse(await store.getJson(run.details.checkpoint.manifest)).files : [];
      for (const e of entries) assert.doesNotMatch(await store.getText(e.ref), /TOP-SECRET/, `${e.name} must not carry the outside file`);
    });

    test('a saved checkpoint reaches the details at once, not at the next heartbeat', { timeout: 120_000 }, async () => {
      const beats = await watchedRun('import time\nimport physvec_runtime as pv\npv.save_json("a.json", {"x": 1})\nprint("SAVED", flush=True)\ntime.sleep(2.5)\npv.save_json("a.json", {"x": 2})\ntime.sleep(2.5)\n');
      const manifests = beats.filter((b) => b.checkpoint).map((b) => b.checkpoint!.manifest.sha256);
      assert.ok(manifests.length >= 2, `each save was snapshotted while the script ran: ${JSON.stringify(beats)}`);
      const last = CheckpointManifest.parse(await store.getJson(beats.at(-1)!.checkpoint!.manifest));
      assert.deepEqual(JSON.parse(await store.getText(last.files[0]!.ref)), { x: 2 });
      assert.equal(new Set(manifests).size, 2, 'one snapshot per save (the temp file of the atomic write is not one)');
    });

    test('a script that saves without pause is still snapshotted while it runs, not only at heartbeats', { timeout: 120_000 }, async () => {
      // Saves every 50 ms, so the directory is never quiet for the settle time, until the test has
      // seen two snapshots (then it drops a stop file) or for 40 s: how long a busy host takes to
      // start the interpreter or store a snapshot cannot fail it, a watcher that waits for quiet can.
      const distinct = (beats: RunStateDetails[]) => new Set(beats.filter((b) => b.checkpoint).map((b) => b.checkpoint!.manifest.sha256));
      const beats = await watchedRun(
        'import os, time\nimport physvec_runtime as pv\nt0 = time.time()\ni = 0\nwhile not os.path.exists("stop") and time.time() - t0 < 40:\n    pv.save_json("a.json", {"i": i})\n    i += 1\n    time.sleep(0.05)\nprint("STOPPED" if os.path.exists("stop") else "RAN OUT", i)\n',
        (seen, workDir) => {
          if (distinct(seen).size >= 2) writeFileSync(path.join(workDir, 'stop'), '');
        },
      );
      assert.ok(distinct(beats).size >= 2, `snapshots were taken during the run despite the constant saving: ${distinct(beats).size}`);
    });

    test('a script without the runtime runs as before and reports no checkpoint', { timeout: 60_000 }, async () => {
      const run = await attempt('import time\nprint("plain")\ntime.sleep(0.6)\n', {}, 1);
      assert.match(run.stdout, /plain/);
      assert.equal(run.details.checkpoint, undefined);
      assert.equal(run.details.progress, undefined);
    });
  });
}
