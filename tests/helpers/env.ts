// Tests that point a provider at a loopback server set its env vars; this puts them back as they were.
export function saveEnv(...names: string[]): () => void {
  const saved = new Map(names.map((n) => [n, process.env[n]]));
  return () => {
    for (const [n, v] of saved) {
      if (v === undefined) delete process.env[n];
      else process.env[n] = v;
    }
  };
}
