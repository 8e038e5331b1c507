import { createBudget, defineBudgetTask } from "@routekit/core";

// What a replacement worker costs: a budget of one worker loads the four built-in tools' task
// modules, then a job that never returns is stopped at its deadline, and the process's CPU time
// (every thread's) and the wall time are read from then until the next trivial job has answered,
// which runs on the replacement. Prints the medians of eight rounds.
//
// Usage: tsx bench/budget-replacement.ts [--javascript]
// With --javascript the stopped and the trivial task are a plain JavaScript module (as a compiled
// package ships them); without it, this repository's TypeScript test tasks (loaded through tsx).

const packages = new URL("../packages/", import.meta.url);
const tasks = process.argv.includes("--javascript")
  ? new URL("./budget-fairness-tasks.js", import.meta.url)
  : new URL("core/test/attacks/support/budget-test-tasks.js", packages);
const trivial = defineBudgetTask<{ text: string }, string>(
  tasks,
  tasks.href.endsWith("budget-fairness-tasks.js") ? "trivial" : "shout",
);
const spin = defineBudgetTask<undefined, never>(tasks, "spin");
const TOOL_MODULES = [
  "llm-tools/src/math-eval/math-eval-task.js",
  "llm-tools/src/json-path/json-path-task.js",
  "llm-tools/src/regex-extract/regex-task.js",
  "llm-tools/src/xpath/xpath-task.js",
];

const cpuMs = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

/** Loads every tool module on the worker (an export that does not exist fails after the import). */
async function loadToolModules(budget: ReturnType<typeof createBudget>): Promise<void> {
  for (const module of TOOL_MODULES) {
    await budget
      .run(defineBudgetTask(new URL(module, packages), "notAnExport"), undefined)
      .catch(() => undefined);
  }
}

const budget = createBudget({ maxWorkers: 1, timeoutMs: 400, startupTimeoutMs: 60_000 });
try {
  await budget.run(trivial, { text: "warm" });
  const wallMs: number[] = [];
  const cpu: number[] = [];
  for (let round = 0; round < 8; round++) {
    await loadToolModules(budget);
    await budget.run(spin, undefined).catch(() => undefined);
    const startedAt = performance.now();
    const cpuAt = cpuMs();
    await budget.run(trivial, { text: "after" }, { timeoutMs: 60_000 });
    wallMs.push(performance.now() - startedAt);
    cpu.push(cpuMs() - cpuAt);
  }
  console.log(
    `replacement worker: first job ${median(wallMs).toFixed(0)} ms after the stop, ` +
      `${median(cpu).toFixed(0)} ms of CPU (medians of 8)`,
  );
} finally {
  await budget.close();
}
