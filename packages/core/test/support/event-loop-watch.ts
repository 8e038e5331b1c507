// An event-loop watch for tests that must show an attack never blocks this thread: one helper for
// every package's attack tests (the llm-tools ones import it from here).
/** What a watch saw: how many times its timer fired and the longest gap between two firings. */
export interface EventLoopReport {
  readonly ticks: number;
  readonly longestGapMs: number;
  readonly elapsedMs: number;
  /** Growth of this thread's heap while the watch ran, in MiB. */
  readonly heapGrowthMb: number;
}

/**
 * Starts a 10 ms interval timer and records the longest gap between its firings: an event loop
 * blocked by an attack shows as a long gap. `stop()` clears the timer and reports.
 */
export function watchEventLoop(): { stop(): EventLoopReport } {
  const startedAt = performance.now();
  const heapAtStart = process.memoryUsage().heapUsed;
  let last = startedAt;
  let longestGapMs = 0;
  let ticks = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
    ticks++;
  }, 10);
  return {
    stop() {
      clearInterval(timer);
      const now = performance.now();
      return {
        ticks,
        longestGapMs: Math.max(longestGapMs, now - last),
        elapsedMs: now - startedAt,
        heapGrowthMb: (process.memoryUsage().heapUsed - heapAtStart) / 1024 / 1024,
      };
    },
  };
}
