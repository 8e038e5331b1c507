import "@routekit/llm-tools";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { attack, createAttackBed, expectContained, settle } from "./support/attack-harness.js";

const bed = createAttackBed();
const evaluate = (expression: string) => bed.context.request("direct:math", { expression });

beforeAll(async () => {
  await bed.context.addRoutes((routes) => {
    routes.from("direct:math").routeId("math-attacks").mathEval({ budget: bed.budget, timeoutMs: 1000 });
  });
  await bed.context.start();
  // Warm the budget: the first job of a worker loads mathjs and hardens it.
  expect(await evaluate("2 * (3 + 4)")).toBe("14");
});
afterAll(() => bed.close());
beforeEach(() => settle(bed.budget));

/** Limits that stop an attack cleanly: the deadline, or a guard refusing before it runs. */
const STOPPED =
  /ran longer than timeoutMs \(1000 ms\) and was stopped|math_eval: .*(limit|more than|disabled|refused|too large|accepts)/i;

describe("attack: math_eval from a model", () => {
  it.each([
    ['bitAnd(bignumber("1e64000"), 1)'],
    ['bitOr(bignumber("1e64000"), 1)'],
    ['bignumber("1e64000") & 1'],
  ])("%s is stopped at timeoutMs, never blocking", async (expression) => {
    const report = await attack(() => evaluate(expression));
    expectContained(
      report,
      4000,
      /math_eval: evaluation ran longer than timeoutMs \(1000 ms\) and was stopped/,
    );
  });

  it("bitXor, | and a matrix of bitAnd at once: each stopped or refused a start, with a clear error", async () => {
    const expressions = [
      'bitXor(bignumber("1e64000"), 1)',
      'bignumber("1e64000") | bignumber("3")',
      'bitAnd([bignumber("1e64000"), bignumber("1e64000")], 3)',
    ];
    const report = await attack(() =>
      Promise.all(
        expressions.map((expression) => evaluate(expression).catch((error: unknown) => error)),
      ).then((outcomes) => {
        for (const outcome of outcomes) {
          expect(outcome).toBeInstanceOf(Error);
          expect((outcome as Error).message).toMatch(
            /ran longer than timeoutMs \(1000 ms\)|did not start within timeoutMs \(1000 ms/,
          );
        }
        throw new Error(`math_eval: ${outcomes.length} attacks contained`);
      }),
    );
    expectContained(report, 15_000, /3 attacks contained/);
  });

  it.each([
    ["zeros(5000, 5000)", /more than maxMatrixElements \(10000\)/],
    ["ones(100000)", /more than maxMatrixElements/],
    ["range(1, 1e9)", /more than maxMatrixElements|limit/],
  ])("refuses the matrix bomb %s by size", async (expression, message) => {
    const report = await attack(() => evaluate(expression));
    expectContained(report, 8000, message);
  });

  it.each([['format(bignumber("9") ^ bignumber("9999999"))'], ['factorial(bignumber("100000"))']])(
    "huge numbers, %s, are stopped or refused",
    async (expression) => {
      const report = await attack(() => evaluate(expression));
      expectContained(report, 8000, STOPPED);
    },
  );

  it("huge numbers that are cheap for decimal.js are simply answered, in a matrix too", async () => {
    expect(await evaluate('[bignumber("1e60000"), 2] * bignumber("1e60000")')).toBe("[1e+120000,2e+60000]");
  });

  it.each([["f(x) = f(x) + 1; f(1)"], ["f(n) = n == 0 ? 1 : f(n - 1) + f(n - 1); f(40)"]])(
    "self-recursion %s is stopped",
    async (expression) => {
      const report = await attack(() => evaluate(expression));
      expectContained(report, 8000, /math_eval: /);
    },
  );

  it.each([
    ["import({ x: 1 })", /function 'import' is disabled/],
    ['createUnit("foo")', /function 'createUnit' is disabled/],
    ['evaluate("1+1")', /function 'evaluate' is disabled/],
    ['config({ number: "BigNumber" })', /function 'config' is disabled|disabled/],
  ])("the hardening holds in the worker: %s", async (expression, message) => {
    const report = await attack(() => evaluate(expression));
    expectContained(report, 8000, message);
  });

  it("a text repeat bomb is refused or stopped", async () => {
    const report = await attack(() => evaluate('x = "aaaaaaaaaaaaaaaa"; concat(x, x, x, x, x, x, x, x)'));
    if (report.outcome instanceof Error) expectContained(report, 8000, /math_eval: /);
    else expect(typeof report.outcome).toBe("string");
  });

  it("a job right after an attack either runs or fails fast with a clear error, never hangs", async () => {
    const attackJob = evaluate('bitAnd(bignumber("1e64000"), 1)').catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const report = await attack(() => evaluate("1 + 2"));
    if (report.outcome instanceof Error)
      expectContained(report, 3000, /math_eval: evaluation did not start within/);
    else expect(report.outcome).toBe("3");
    expect(await attackJob).toBeInstanceOf(Error);
  });

  it("keeps answering after every attack; the worker that was stopped is replaced", async () => {
    expect(await evaluate("sqrt(16) + 1")).toBe("5");
    expect(bed.budget.stats().queued).toBe(0);
  });
});
