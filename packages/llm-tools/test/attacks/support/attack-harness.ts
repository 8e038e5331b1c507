import { createBudget, createContext, type RouteContext } from "@routekit/core";
import { loadFactor } from "@routekit/test-support";
import { expect } from "vitest";
// The event-loop watch is the one in the core package's test support.
import { type EventLoopReport, watchEventLoop } from "../../../../core/test/support/event-loop-watch.js";

/** What an attack did: its outcome (a value or the error) and what the event loop saw meanwhile. */
export interface AttackReport extends EventLoopReport {
  readonly outcome: unknown;
}

/** Runs an attack while watching the event loop; never throws (the error is the outcome). */
export async function attack(run: () => Promise<unknown>): Promise<AttackReport> {
  const watch = watchEventLoop();
  const outcome = await run().catch((error: unknown) => error);
  return { outcome, ...watch.stop() };
}

/**
 * The bounds every attack must keep: done within `withinMs` (a job that follows a terminated
 * worker also waits for a fresh worker to load its engine, which under vitest's TypeScript
 * loader takes a second or two: bounds are set with that in mind), the event loop never stalled (a
 * 10 ms timer kept firing), this thread's heap did not balloon, and a clear error came back.
 */
export function expectContained(report: AttackReport, withinMs: number, message: RegExp): void {
  expect(report.outcome).toBeInstanceOf(Error);
  expect((report.outcome as Error).message).toMatch(message);
  // Scaled by the machine's load measured now (two cores shared by several test runs stretch every
  // millisecond), tight against the attacks: run inline, each would block the loop for longer than
  // its timeout (1000 ms or more, stretched by the same load).
  const factor = loadFactor();
  expect(report.elapsedMs).toBeLessThan(withinMs * factor);
  expect(report.longestGapMs).toBeLessThan(750 * factor);
  expect(report.ticks).toBeGreaterThanOrEqual(Math.floor((report.elapsedMs - 750 * factor) / (40 * factor)));
  expect(report.heapGrowthMb).toBeLessThan(64);
}

/**
 * Waits until no worker of the budget is starting, so an attack is measured on a warm pool
 * (recovery after a terminated worker is its own test).
 */
export async function settle(budget: { stats(): { starting: number; busy: number } }): Promise<void> {
  for (let waited = 0; waited < 30_000; waited += 50) {
    const stats = budget.stats();
    if (stats.starting === 0 && stats.busy === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A budget of modest size for attack tests, and a context whose routes use it. */
export function createAttackBed(): {
  budget: ReturnType<typeof createBudget>;
  context: RouteContext;
  close(): Promise<void>;
} {
  const budget = createBudget({ maxWorkers: 2, timeoutMs: 1000, maxMemoryMb: 96 });
  const context = createContext();
  return {
    budget,
    context,
    async close() {
      await context.stop();
      await budget.close();
    },
  };
}
