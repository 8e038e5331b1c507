import { BudgetError, createBudget, defineBudgetTask } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

const tasks = new URL("./support/budget-test-tasks.js", import.meta.url);
const shout = defineBudgetTask<{ text: string }, string>(tasks, "shout");
const spin = defineBudgetTask<undefined, never>(tasks, "spin");
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

describe("budget lanes", () => {
  it("one lane's endless jobs never hold every worker: another lane's trivial job runs meanwhile", async () => {
    const limited = budget({ maxWorkers: 2, timeoutMs: 20_000 });
    await Promise.all([
      limited.run(shout, { text: "a" }, { lane: "victim" }),
      limited.run(shout, { text: "b" }, { lane: "hostile" }),
    ]);
    const hostile = Array.from({ length: 4 }, () =>
      rejection(limited.run(spin, undefined, { lane: "hostile", timeoutMs: 20_000 })),
    );
    expect(limited.stats()).toMatchObject({ busy: 1, queued: 3 });
    const first = await Promise.race([
      limited.run(shout, { text: "victim" }, { lane: "victim" }),
      Promise.all(hostile).then(() => "hostile"),
    ]);
    expect(first).toBe("VICTIM");
    await limited.close();
    for (const error of await Promise.all(hostile)) expect(error.message).toMatch(/the budget was closed/);
  });

  it("serves lanes in turn: a lane's one job does not wait behind another lane's backlog", async () => {
    const limited = budget({ maxWorkers: 1, timeoutMs: 20_000 });
    await limited.run(shout, { text: "warm" });
    const order: string[] = [];
    const record = (name: string, promise: Promise<unknown>) => promise.then(() => order.push(name));
    const done = [
      record("a1", limited.run(sleep, { ms: 200 }, { lane: "a" })),
      record("a2", limited.run(sleep, { ms: 1 }, { lane: "a" })),
      record("a3", limited.run(sleep, { ms: 1 }, { lane: "a" })),
      record("a4", limited.run(sleep, { ms: 1 }, { lane: "a" })),
      record("b1", limited.run(shout, { text: "b" }, { lane: "b" })),
      record("c1", limited.run(shout, { text: "c" }, { lane: "c" })),
    ];
    await Promise.all(done);
    expect(order).toEqual(["a1", "a2", "b1", "c1", "a3", "a4"]);
  });

  it("a lane whose job is stopped at its deadline waits for its own replacement worker", async () => {
    const limited = budget({ maxWorkers: 2, timeoutMs: 20_000 });
    await Promise.all([
      limited.run(shout, { text: "a" }, { lane: "victim" }),
      limited.run(shout, { text: "b" }, { lane: "hostile" }),
    ]);
    const stopped = await rejection(limited.run(spin, undefined, { lane: "hostile", timeoutMs: 300 }));
    expect(stopped).toMatchObject({ code: "BUDGET_TIMEOUT", started: true });
    // The stopped worker's replacement is starting, charged to the hostile lane: the lane's next
    // job waits for it instead of taking the worker the victim lane uses.
    const next = rejection(limited.run(spin, undefined, { lane: "hostile", timeoutMs: 20_000 }));
    expect(limited.stats()).toMatchObject({ workers: 2, busy: 0, starting: 1, queued: 1 });
    await expect(limited.run(shout, { text: "victim" }, { lane: "victim" })).resolves.toBe("VICTIM");
    await limited.close();
    expect((await next).message).toMatch(/the budget was closed/);
  });

  it("a lane alone may use every worker; the cap holds while another lane is present", async () => {
    const limited = budget({ maxWorkers: 2, timeoutMs: 300 });
    await Promise.all([limited.run(shout, { text: "a" }), limited.run(shout, { text: "b" })]);
    // Both warm-up jobs were of one lane, shout's; they are done and a whole timeoutMs passes.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const solo = [1, 2].map(() => limited.run(sleep, { ms: 200 }, { lane: "solo", timeoutMs: 20_000 }));
    expect(limited.stats()).toMatchObject({ busy: 2, queued: 0 });
    await Promise.all(solo);
    const again = [1, 2].map(() => limited.run(sleep, { ms: 200 }, { lane: "solo", timeoutMs: 20_000 }));
    const other = limited.run(shout, { text: "other" }, { lane: "other", timeoutMs: 20_000 });
    await Promise.all(again);
    await expect(other).resolves.toBe("OTHER");
    // "other" is present now: "solo" gets one worker, "other" the other.
    const capped = [1, 2].map(() => limited.run(sleep, { ms: 200 }, { lane: "solo", timeoutMs: 20_000 }));
    expect(limited.stats()).toMatchObject({ busy: 1, queued: 1 });
    await Promise.all(capped);
  });

  it("one lane may not fill the whole queue", async () => {
    const limited = budget({ maxWorkers: 1, maxQueue: 4, timeoutMs: 20_000 });
    await limited.run(shout, { text: "warm" });
    const running = limited.run(sleep, { ms: 300 }, { lane: "other" });
    const queued = [1, 2, 3].map(() => limited.run(sleep, { ms: 1 }, { lane: "greedy" }));
    const refused = await rejection(limited.run(sleep, { ms: 1 }, { lane: "greedy" }));
    expect(refused.code).toBe("QUEUE_FULL");
    expect(refused.limit).toBe("maxQueuePerLane");
    expect(refused.message).toMatch(/3 jobs of lane 'greedy' are already waiting .*maxQueuePerLane 3/);
    await expect(limited.run(shout, { text: "fits" }, { lane: "other" })).resolves.toBe("FITS");
    await expect(Promise.all([running, ...queued])).resolves.toHaveLength(4);
  });

  it("defaults lanes to the task and checks the lane options", () => {
    const defaults = createBudget({ maxWorkers: 3, maxQueue: 64 });
    expect(defaults.options).toMatchObject({ maxWorkersPerLane: 2, maxQueuePerLane: 48 });
    expect(createBudget({ maxWorkers: 1 }).options.maxWorkersPerLane).toBe(1);
    expect(() => createBudget({ maxWorkers: 2, maxWorkersPerLane: 3 })).toThrow(
      /option 'maxWorkersPerLane' must be at most maxWorkers \(2; found 3\)/,
    );
    expect(() => createBudget({ maxQueuePerLane: 0 })).toThrow(
      /'maxQueuePerLane' must be a positive integer/,
    );
    const limited = budget();
    expect(() => limited.run(shout, { text: "x" }, { lane: "" })).toThrow(
      /option 'lane' must be a text of 1 to 200 characters \(found 0 characters\)/,
    );
    expect(() => limited.run(shout, { text: "x" }, { lane: 7 as unknown as string })).toThrow(
      /option 'lane' must be a text/,
    );
  });
});
