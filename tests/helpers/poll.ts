// Polling a condition in tests that drive real workers and servers: the probe's errors count as
// "not yet" (a server restarting, a workflow not started), so a test waits instead of failing early.
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 600_000, everyMs = 500): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
