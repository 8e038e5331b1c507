import { createBudget } from "@routekit/core";
import { runRegexExtract } from "@routekit/llm-tools";
import { scaledMs } from "@routekit/test-support";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { attack, createAttackBed, expectContained, settle } from "./support/attack-harness.js";

const bed = createAttackBed();
const MIB = 1024 * 1024;

beforeAll(async () => {
  await bed.context.addRoutes((routes) => {
    routes
      .from("direct:regex")
      .routeId("regex-attacks")
      .regexExtract({ budget: bed.budget, matchTimeoutMs: 1000 });
  });
  await bed.context.start();
  // Warm the budget with a pattern only the JavaScript engine takes (a backreference).
  expect(await bed.context.request("direct:regex", { text: "xyzzy", pattern: "(z)\\1" })).toBe('"zz"');
});
afterAll(() => bed.close());
beforeEach(() => settle(bed.budget));

describe("attack: regex_extract from a model", () => {
  it("1 MiB of input cannot produce huge output: the total is capped by maxOutputBytes", async () => {
    const text = "a".repeat(MIB);
    // A lookahead capture at every position: 64 matches of up to 1 MiB each, 64 MiB in all.
    const report = await attack(() =>
      bed.context.request("direct:regex", { text, pattern: "(?=(a+))", group: 1, all: true }),
    );
    expectContained(report, 6000, /regex_extract: .*more than maxOutputBytes \(1048576\)/);
  });

  it("a single match larger than maxOutputBytes is refused on the inline path too", async () => {
    const report = await attack(() =>
      runRegexExtract(
        { text: "b".repeat(5000), pattern: "b+" },
        { maxOutputBytes: 1000, budget: bed.budget },
      ),
    );
    expectContained(report, 1000, /more than maxOutputBytes \(1000\)/);
  });

  it("a trivial job does not wait seconds behind eight slow ones", async () => {
    const busy = createBudget({ maxWorkers: 2, timeoutMs: 1000 });
    try {
      const options = { budget: busy, matchTimeoutMs: 1000 };
      // Two warm workers first, then eight catastrophic jobs (a backreference forces the JS engine).
      await Promise.all([
        runRegexExtract({ text: "aa", pattern: "(a)\\1" }, options),
        runRegexExtract({ text: "bb", pattern: "(b)\\1" }, options),
      ]);
      const slow = Array.from({ length: 8 }, () =>
        runRegexExtract({ text: `${"a".repeat(30)}!`, pattern: "^(a+)+\\1$" }, options).catch(
          (error: unknown) => error,
        ),
      );
      const report = await attack(() => runRegexExtract({ text: "cc", pattern: "(c)\\1" }, options));
      // It ran, or failed at its own deadline without waiting for the slow ones to have their turns
      // (queued to the end, or started on a worker freed just before its deadline, and stopped then).
      if (report.outcome instanceof Error) {
        expectContained(
          report,
          8000,
          /regex_extract: matching (did not start within|ran longer than) matchTimeoutMs \(1000 ms/,
        );
      } else {
        expect(report.outcome).toBe('"cc"');
      }
      const outcomes = (await Promise.all(slow)) as Error[];
      const stopped = outcomes.filter((error) => /ran longer than matchTimeoutMs/.test(error.message));
      const neverStarted = outcomes.filter((error) =>
        /did not start within matchTimeoutMs/.test(error.message),
      );
      // Two workers: the first two are stopped; the rest fail at their deadlines, most never started.
      expect(stopped.length).toBeGreaterThanOrEqual(2);
      expect(stopped.length + neverStarted.length).toBe(8);
      expect(neverStarted.length).toBeGreaterThanOrEqual(4);
    } finally {
      await busy.close();
    }
  });

  it("a full queue refuses at once with a clear error", async () => {
    const tiny = createBudget({ maxWorkers: 1, maxQueue: 1, timeoutMs: 1000 });
    try {
      const options = { budget: tiny, matchTimeoutMs: 1000 };
      await runRegexExtract({ text: "aa", pattern: "(a)\\1" }, options);
      const running = runRegexExtract({ text: `${"a".repeat(30)}!`, pattern: "^(a+)+\\1$" }, options).catch(
        (error: unknown) => error,
      );
      const waiting = runRegexExtract({ text: "dd", pattern: "(d)\\1" }, options).catch(
        (error: unknown) => error,
      );
      const report = await attack(() => runRegexExtract({ text: "ee", pattern: "(e)\\1" }, options));
      expectContained(
        report,
        200,
        /regex_extract: budget: .*refused: 1 jobs are already waiting for a worker \(maxQueue 1/,
      );
      await Promise.all([running, waiting]);
    } finally {
      await tiny.close();
    }
  });

  it.each([
    ["nested quantifiers with a backreference", "^(a+)+\\1$", `${"a".repeat(30)}!`],
    ["a lookahead over nested quantifiers", "(?=(a+)+$)", `${"a".repeat(30)}!`],
    ["overlapping alternation with a backreference", "^(a|aa)+\\1$", `${"a".repeat(40)}!`],
  ])("stops %s at matchTimeoutMs", async (_label, pattern, text) => {
    const report = await attack(() => bed.context.request("direct:regex", { text, pattern }));
    expectContained(
      report,
      4000,
      /regex_extract: matching ran longer than matchTimeoutMs \(1000 ms\) and was stopped/,
    );
  });

  it("linear-time patterns over 1 MiB run on re2js without any worker", async () => {
    const report = await attack(() =>
      bed.context.request("direct:regex", { text: `${"x".repeat(MIB - 1)}!`, pattern: "(x+x+)+y" }),
    );
    expect(report.outcome).toBe("null");
    expect(report.longestGapMs).toBeLessThan(scaledMs(750));
  });
});
