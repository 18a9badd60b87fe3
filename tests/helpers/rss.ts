// How much a piece of work grows this process's memory: the test of "streamed, not buffered".

/** The largest rise of this process's RSS over its level before `work`, sampled every 2 ms. */
export async function rssRise(work: () => Promise<unknown>): Promise<number> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 2);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, process.memoryUsage().rss) - base;
}
