import { createRequire } from "node:module";
import { runRegexExtract } from "@routekit/llm-tools";
import { scaledMs } from "@routekit/test-support";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { attack, createAttackBed, settle } from "./support/attack-harness.js";

const bed = createAttackBed();
const { RE2JS } = createRequire(import.meta.url)("re2js") as typeof import("re2js");

/** A flat pattern under the default maxPatternChars (4096) that compiles to ~580,000 instructions. */
const hostile = (variant: number) => `${variant}|${".{1000}".repeat(580)}`;
/** The time one such pattern takes to compile on this thread, measured in this run. */
let inlineCompileMs = 0;

beforeAll(async () => {
  await bed.context.addRoutes((routes) => {
    routes
      .from("direct:regex")
      .routeId("regex-compile")
      .regexExtract({ budget: bed.budget, matchTimeoutMs: 5000 });
  });
  await bed.context.start();
  expect(await bed.context.request("direct:regex", { text: "xyzzy", pattern: "(z)\\1" })).toBe('"zz"');
  const startedAt = performance.now();
  RE2JS.compile(hostile(-1), RE2JS.LOOKBEHINDS);
  inlineCompileMs = performance.now() - startedAt;
});
afterAll(() => bed.close());
beforeEach(() => settle(bed.budget));

describe("attack: regex_extract patterns that are costly to compile", () => {
  it("a flat pattern of a few KB compiling to 580,000 instructions never compiles on the route's thread", async () => {
    const report = await attack(() =>
      bed.context.request("direct:regex", { text: "abc", pattern: hostile(0) }),
    );
    // Whatever came back (no match, or a timeout in the worker), this thread kept running: compiled
    // here the pattern blocks it for the whole compile time measured above.
    if (report.outcome instanceof Error) expect(report.outcome.message).toMatch(/regex_extract: /);
    else expect(report.outcome).toBe("null");
    expect(report.longestGapMs).toBeLessThan(Math.max(scaledMs(150), inlineCompileMs / 2));
  });

  it("distinct costly patterns do not pile up compiled programs in this thread's heap", async () => {
    const report = await attack(async () => {
      for (let variant = 1; variant <= 3; variant++) {
        await runRegexExtract(
          { text: "abc", pattern: hostile(variant) },
          { budget: bed.budget, matchTimeoutMs: 5000 },
        ).catch((error: unknown) => error);
      }
    });
    // Compiled and cached here, each keeps ~44 MB: three of them are 130 MB.
    expect(report.heapGrowthMb).toBeLessThan(60);
    expect(report.longestGapMs).toBeLessThan(Math.max(scaledMs(150), inlineCompileMs / 2));
  });

  it("a short pattern still matches on this thread, and a measured cheap one is compiled here after its first call", async () => {
    expect(await runRegexExtract({ text: "A-17 B-4", pattern: "[A-Z]-(\\d+)", group: 1, all: true })).toBe(
      '["17","4"]',
    );
    // The real budget, counting the jobs sent to it.
    let jobs = 0;
    const counted = {
      ...bed.budget,
      run: ((...args) => {
        jobs++;
        return bed.budget.run(...args);
      }) as typeof bed.budget.run,
    };
    const longer = `(?:${"[a-z]".repeat(14)})|(?:${"[0-9]".repeat(6)})-(\\d{2,3})`;
    const options = { budget: counted };
    expect(await runRegexExtract({ text: "x 123456-42 y", pattern: longer, group: 1 }, options)).toBe('"42"');
    expect(jobs).toBe(1);
    expect(await runRegexExtract({ text: "x 654321-77 y", pattern: longer, group: 1 }, options)).toBe('"77"');
    expect(jobs).toBe(1);
  });

  it("a group the pattern lacks is still an input error naming the key when the pattern compiled in a worker", async () => {
    const pattern = `(?P<word>${"[a-z]".repeat(20)})`;
    await expect(
      runRegexExtract({ text: "x", pattern, group: "other" }, { budget: bed.budget }),
    ).rejects.toThrow(
      /key 'group' names capture group 'other', which the pattern does not have \(named groups: word\)/,
    );
    await expect(
      runRegexExtract({ text: "x", pattern: `(${"a".repeat(70)}`, group: 1 }, { budget: bed.budget }),
    ).rejects.toThrow(/regex_extract: key 'pattern' is not a valid regular expression/);
  });
});
