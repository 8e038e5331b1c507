import { BudgetError, createBudget, defineBudgetTask } from "@routekit/core";
import { scaledMs } from "@routekit/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { watchEventLoop } from "../support/event-loop-watch.js";

const tasks = new URL("./support/budget-test-tasks.js", import.meta.url);
const shout = defineBudgetTask<{ text: string }, string>(tasks, "shout");
const spin = defineBudgetTask<undefined, never>(tasks, "spin");
const exhaustMemory = defineBudgetTask<undefined, number>(tasks, "exhaustMemory");
const produce = defineBudgetTask<{ bytes: number }, string>(tasks, "produce");
const refuse = defineBudgetTask<{ key: string }, never>(tasks, "refuse");
const sleep = defineBudgetTask<{ ms: number }, string>(tasks, "sleep");

const budgets: ReturnType<typeof createBudget>[] = [];
function budget(options: Parameters<typeof createBudget>[0] = {}) {
  const created = createBudget(options);
  budgets.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(budgets.splice(0).map((created) => created.close()));
});

async function rejection(promise: Promise<unknown>): Promise<BudgetError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(BudgetError);
  return error as BudgetError;
}

describe("budget", () => {
  it("runs a task from a module file in a worker and returns its result", async () => {
    const limited = budget({ timeoutMs: 10_000 });
    await expect(limited.run(shout, { text: "hi" })).resolves.toBe("HI");
    expect(limited.stats()).toMatchObject({ workers: 1, busy: 0, starting: 0, queued: 0 });
  });

  it("terminates a task that never returns at its deadline while the event loop keeps running", async () => {
    const limited = budget({ timeoutMs: 10_000 });
    await limited.run(shout, { text: "warm" });
    const watch = watchEventLoop();
    const error = await rejection(limited.run(spin, undefined, { timeoutMs: 1500 }));
    const report = watch.stop();
    expect(error.code).toBe("BUDGET_TIMEOUT");
    expect(error.limit).toBe("timeoutMs");
    expect(error.message).toMatch(/ran longer than timeoutMs \(1500 ms/);
    expect(report.elapsedMs).toBeLessThan(scaledMs(4000));
    expect(report.longestGapMs).toBeLessThan(scaledMs(750));
    expect(report.ticks).toBeGreaterThan(5);
    // The terminated worker is gone; a replacement starts at once and loads the same modules.
    expect(limited.stats()).toMatchObject({ workers: 1, busy: 0, queued: 0 });
    await expect(limited.run(shout, { text: "after" })).resolves.toBe("AFTER");
  });

  it("stops a task at its heap limit and names maxMemoryMb", async () => {
    const limited = budget({ timeoutMs: 15_000, maxMemoryMb: 32 });
    const watch = watchEventLoop();
    const error = await rejection(limited.run(exhaustMemory, undefined));
    const report = watch.stop();
    expect(error.code).toBe("BUDGET_LIMIT_EXCEEDED");
    expect(error.limit).toBe("maxMemoryMb");
    expect(error.message).toMatch(/ran out of memory \(maxMemoryMb 32\)/);
    expect(report.longestGapMs).toBeLessThan(scaledMs(750));
    expect(report.heapGrowthMb).toBeLessThan(32);
  });

  it("refuses output larger than maxOutputBytes", async () => {
    const limited = budget({ timeoutMs: 10_000, maxOutputBytes: 1000 });
    await expect(limited.run(produce, { bytes: 1000 })).resolves.toHaveLength(1000);
    const error = await rejection(limited.run(produce, { bytes: 1001 }));
    expect(error.code).toBe("BUDGET_LIMIT_EXCEEDED");
    expect(error.message).toMatch(/1001 bytes of output, more than maxOutputBytes \(1000\)/);
    const perJob = await rejection(limited.run(produce, { bytes: 20 }, { maxOutputBytes: 10 }));
    expect(perJob.limit).toBe("maxOutputBytes");
  });

  it("reports what a task threw, code and fields included", async () => {
    const limited = budget({ timeoutMs: 10_000 });
    const error = await rejection(limited.run(refuse, { key: "path" }));
    expect(error.code).toBe("BUDGET_TASK_FAILED");
    expect(error.taskError).toEqual({
      name: "Error",
      message: "no path",
      code: "TOOL_INPUT_INVALID",
      details: { key: "path" },
    });
  });

  it("counts the deadline from submission: a job that waits too long fails without running", async () => {
    const limited = budget({ maxWorkers: 1, timeoutMs: 10_000 });
    await limited.run(shout, { text: "warm" });
    // A deadline counted from the start would make the late job wait the slow one's 2500 ms; a
    // loaded machine keeps well within the 2000 ms margin over the 200 ms deadline.
    const slow = limited.run(sleep, { ms: 2500 });
    const waiting = rejection(limited.run(shout, { text: "late" }, { timeoutMs: 200 }));
    const startedAt = performance.now();
    const error = await waiting;
    expect(performance.now() - startedAt).toBeLessThan(2000);
    expect(error.code).toBe("BUDGET_TIMEOUT");
    expect(error.message).toMatch(/waited \d+ ms for a worker and was not started.*counts from submission/);
    await expect(slow).resolves.toBe("slept");
  });

  it("refuses a job at once when the queue is full", async () => {
    const limited = budget({ maxWorkers: 1, maxQueue: 2, timeoutMs: 5000 });
    await limited.run(shout, { text: "warm" });
    const running = [
      limited.run(sleep, { ms: 300 }),
      limited.run(sleep, { ms: 1 }),
      limited.run(sleep, { ms: 1 }),
    ];
    const error = await rejection(limited.run(shout, { text: "one too many" }));
    expect(error.code).toBe("QUEUE_FULL");
    expect(error.message).toMatch(/2 jobs are already waiting for a worker \(maxQueue 2/);
    await expect(Promise.all(running)).resolves.toEqual(["slept", "slept", "slept"]);
  });

  it("a trivial job does not wait behind eight slow ones: waiting jobs never wait for others to run", async () => {
    const limited = budget({ timeoutMs: 700, maxWorkers: 2 });
    // Starting the two workers: how long a worker takes to start on this machine now (a loaded
    // machine takes seconds), as the stopped slow job's worker is replaced before the trivial runs.
    const spawnStarted = performance.now();
    await Promise.all([limited.run(shout, { text: "a" }), limited.run(shout, { text: "b" })]);
    const spawnMs = performance.now() - spawnStarted;
    const slow = Array.from({ length: 8 }, () => rejection(limited.run(spin, undefined)));
    const startedAt = performance.now();
    const trivial = await limited.run(shout, { text: "quick" }).then(
      (value) => value,
      (error: unknown) => error,
    );
    const waitedMs = performance.now() - startedAt;
    const slowErrors = await Promise.all(slow);
    // The slow jobs are one lane (the spin task's) and the trivial job another, present since the
    // warm-up: the slow lane holds one worker (maxWorkersPerLane, default maxWorkers - 1), its
    // first job ran and was stopped, the seven behind it failed at their own deadline (most
    // without starting; a queued job that still had a millisecond or more left when its lane's
    // replacement became ready may start), and the trivial job ran at once on the other worker.
    expect(slowErrors.filter((error) => error.started === true).length).toBeGreaterThanOrEqual(1);
    expect(slowErrors.filter((error) => error.started === false).length).toBeGreaterThanOrEqual(2);
    for (const error of slowErrors) expect(error.code).toBe("BUDGET_TIMEOUT");
    expect(trivial).toBe("QUICK");
    // Behind the slow ones it would wait four rounds of 700 ms, plus a worker start per round.
    expect(waitedMs).toBeLessThan(2800 + spawnMs);
  });

  it("fails a job when its signal aborts and terminates the worker running it", async () => {
    const limited = budget({ timeoutMs: 10_000 });
    await limited.run(shout, { text: "warm" });
    const controller = new AbortController();
    const running = rejection(limited.run(spin, undefined, { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error("caller gave up")), 100);
    const error = await running;
    expect(error.code).toBe("EXCHANGE_ABORTED");
    expect(error.message).toMatch(/caller gave up/);
    // An aborted job's worker is terminated and not replaced: the caller chose to stop.
    expect(limited.stats().workers).toBe(0);
  });

  it("releases idle workers: unref'd at once, terminated after idleTimeoutMs", async () => {
    const resourcesBefore = process.getActiveResourcesInfo().length;
    const limited = budget({ timeoutMs: 10_000, idleTimeoutMs: 200 });
    await limited.run(shout, { text: "x" });
    expect(limited.stats().workers).toBe(1);
    expect(process.getActiveResourcesInfo().length).toBeLessThanOrEqual(resourcesBefore);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(limited.stats()).toEqual({ workers: 0, busy: 0, starting: 0, queued: 0 });
  });

  it("close() fails waiting and running jobs and leaves nothing behind", async () => {
    const limited = budget({ maxWorkers: 1, timeoutMs: 10_000 });
    const running = rejection(limited.run(spin, undefined));
    const waiting = rejection(limited.run(shout, { text: "never" }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await limited.close();
    expect((await running).message).toMatch(/the budget was closed/);
    expect((await waiting).code).toBe("EXCHANGE_ABORTED");
    expect(limited.stats()).toEqual({ workers: 0, busy: 0, starting: 0, queued: 0 });
  });

  it("checks its options and names the bad one", () => {
    expect(() => createBudget({ timeoutMs: 0 })).toThrow(
      /option 'timeoutMs' must be a positive integer \(found number 0\)/,
    );
    expect(() => createBudget({ maxWorker: 2 } as never)).toThrow(/unknown option 'maxWorker'/);
    expect(() => defineBudgetTask("https://example.invalid/x.js", "run")).toThrow(/must be a file: URL/);
  });

  it("names a missing task export", async () => {
    const limited = budget({ timeoutMs: 10_000 });
    const missing = defineBudgetTask(tasks, "nothingHere");
    const error = await rejection(limited.run(missing, undefined));
    expect(error.message).toMatch(/exports no function named 'nothingHere'/);
  });
});
