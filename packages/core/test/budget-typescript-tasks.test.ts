import { createBudget, defineBudgetTask } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

const budgets: ReturnType<typeof createBudget>[] = [];
function budget() {
  const created = createBudget({ timeoutMs: 15_000 });
  budgets.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(budgets.splice(0).map((created) => created.close()));
});

describe("budget tasks written in TypeScript", () => {
  it("loads a task module whose relative imports are written .js, named by its .js URL", async () => {
    const task = defineBudgetTask<{ text: string }, string>(
      new URL("./support/budget-typescript-task.js", import.meta.url),
      "shoutTwice",
    );
    expect(task.moduleUrl()).toMatch(/budget-typescript-task\.ts$/);
    await expect(budget().run(task, { text: "hi" })).resolves.toBe("HI HI");
  });

  it("loads the same module named by its .ts URL", async () => {
    const task = defineBudgetTask<{ text: string }, string>(
      new URL("./support/budget-typescript-task.ts", import.meta.url),
      "shoutTwice",
    );
    await expect(budget().run(task, { text: "ts" })).resolves.toBe("TS TS");
  });

  it("loads it again in the replacement of a worker that was stopped at its deadline", async () => {
    const typescriptTask = defineBudgetTask<{ text: string }, string>(
      new URL("./support/budget-typescript-task.js", import.meta.url),
      "shoutTwice",
    );
    const spin = defineBudgetTask<undefined, never>(
      new URL("./attacks/support/budget-test-tasks.js", import.meta.url),
      "spin",
    );
    const limited = budget();
    await expect(limited.run(typescriptTask, { text: "before" })).resolves.toBe("BEFORE BEFORE");
    await expect(limited.run(spin, undefined, { timeoutMs: 500 })).rejects.toMatchObject({
      code: "BUDGET_TIMEOUT",
    });
    await expect(limited.run(typescriptTask, { text: "after" })).resolves.toBe("AFTER AFTER");
  });
});
