import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scaledMs } from "@routekit/test-support";
import { afterAll, describe, expect, it } from "vitest";
import { LlmToolsError } from "../src/errors.js";
import {
  regexExtract,
  resolveRegexExtractOptions,
  shutdownRegexWorkers,
} from "../src/regex-extract/index.js";

afterAll(() => shutdownRegexWorkers());

const catastrophicText = `${"a".repeat(30)}!`;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/** Runs `work` while a 10 ms interval counts ticks: a blocked event loop counts none. */
async function withTicks<T>(
  work: () => Promise<T>,
): Promise<{ outcome: unknown; ticks: number; elapsedMs: number }> {
  let ticks = 0;
  const interval = setInterval(() => ticks++, 10);
  const started = performance.now();
  const outcome = await work().catch((error: unknown) => error);
  const elapsedMs = performance.now() - started;
  clearInterval(interval);
  return { outcome, ticks, elapsedMs };
}

describe("regex_extract match timeout", () => {
  it.each([
    ["a backreference", "^(a+)+\\1$", catastrophicText],
    ["a lookahead", "(?=(a+)+$)", catastrophicText],
    ["a huge RE2 program on 1 MiB of text", "(?i)[a-z]{500}[0-9]{500}", "a".repeat(1 << 20)],
  ])(
    "stops a catastrophic pattern with %s while the event loop keeps running",
    async (_label, pattern, text) => {
      const { outcome, ticks, elapsedMs } = await withTicks(() =>
        regexExtract({ text, pattern }, { matchTimeoutMs: 400 }),
      );
      expect(outcome).toBeInstanceOf(LlmToolsError);
      expect(outcome).toMatchObject({ code: "TOOL_TIMEOUT", toolName: "regex_extract" });
      expect((outcome as Error).message).toBe(
        "regex_extract: matching ran longer than matchTimeoutMs (400 ms) and was stopped",
      );
      expect(ticks).toBeGreaterThan(5);
      expect(elapsedMs).toBeLessThan(scaledMs(5000));
    },
  );

  it("uses a fresh worker for the next call after a worker was stopped", async () => {
    await rejection(regexExtract({ text: catastrophicText, pattern: "^(a+)+\\1$" }, { matchTimeoutMs: 200 }));
    // The replacement worker is still loading re2js: waiting for it counts against the deadline,
    // so give the next call room on a busy machine.
    expect(await regexExtract({ text: "xyzzy", pattern: "(z)\\1" }, { matchTimeoutMs: 10_000 })).toBe('"zz"');
  });

  it("keeps serving other calls while catastrophic ones run", async () => {
    const slow = [1, 2].map(() =>
      rejection(regexExtract({ text: catastrophicText, pattern: "^(a+)+\\1$" }, { matchTimeoutMs: 500 })),
    );
    const quick = ["one one", "two two", "six six"].map((text) =>
      regexExtract({ text, pattern: "(\\w+) \\1", group: 1 }, { matchTimeoutMs: 10_000 }),
    );
    expect(await Promise.all(quick)).toEqual(['"one"', '"two"', '"six"']);
    for (const error of await Promise.all(slow)) expect(error).toMatchObject({ code: "TOOL_TIMEOUT" });
  });
});

describe("regex_extract abort signal", () => {
  it("stops a running match when the signal aborts and rejects with its reason", async () => {
    const controller = new AbortController();
    const reason = new Error("caller gave up");
    setTimeout(() => controller.abort(reason), 100);
    const { outcome, elapsedMs } = await withTicks(() =>
      regexExtract(
        { text: catastrophicText, pattern: "^(a+)+\\1$" },
        { matchTimeoutMs: 60_000 },
        controller.signal,
      ),
    );
    expect(outcome).toBe(reason);
    expect(elapsedMs).toBeLessThan(scaledMs(5000));
  });

  it("rejects at once with the reason of a signal that already aborted", async () => {
    const reason = new Error("already aborted");
    const outcome = await rejection(regexExtract({ text: "a", pattern: "a" }, {}, AbortSignal.abort(reason)));
    expect(outcome).toBe(reason);
  });
});

describe("regex_extract size limits", () => {
  it("refuses a text longer than maxTextChars (default 1 MiB), naming the key and the option", async () => {
    const error = await rejection(regexExtract({ text: "a".repeat(1_048_577), pattern: "a" }));
    expect(error).toMatchObject({ code: "TOOL_LIMIT_EXCEEDED", toolName: "regex_extract" });
    expect((error as Error).message).toBe(
      "regex_extract: key 'text' has 1048577 characters, more than maxTextChars (1048576)",
    );
    expect(await regexExtract({ text: "a".repeat(1_048_576), pattern: "a$" })).toBe('"a"');
  });

  it("refuses a pattern longer than maxPatternChars", async () => {
    const error = await rejection(
      regexExtract({ text: "a", pattern: "a".repeat(11) }, { maxPatternChars: 10 }),
    );
    expect((error as Error).message).toBe(
      "regex_extract: key 'pattern' has 11 characters, more than maxPatternChars (10)",
    );
  });
});

describe("regex_extract options", () => {
  it("fills in the defaults", () => {
    expect(resolveRegexExtractOptions()).toEqual({
      matchTimeoutMs: 1000,
      maxTextChars: 1_048_576,
      maxMatches: 64,
      maxPatternChars: 4096,
      maxOutputBytes: 1_048_576,
      budget: undefined,
      pattern: undefined,
      group: undefined,
      all: undefined,
    });
  });

  it.each([
    [
      { matchTimeoutMs: 0 },
      "option 'matchTimeoutMs' must be a whole number from 1 to 2147483647 (found number 0)",
    ],
    [{ maxTextChars: -5 }, "option 'maxTextChars' must be a whole number >= 1 (found number -5)"],
    [{ maxMatches: 1.5 }, "option 'maxMatches' must be a whole number >= 1 (found number 1.5)"],
    [{ maxPatternChars: "9" }, `option 'maxPatternChars' must be a whole number >= 1 (found string "9")`],
    [
      { matchTimeoutMs: 3_000_000_000 },
      "option 'matchTimeoutMs' must be a whole number from 1 to 2147483647 (found number 3000000000)",
    ],
    [
      { matchTimeout: 5 },
      "unknown option 'matchTimeout' (did you mean 'matchTimeoutMs'?) (expected one of matchTimeoutMs, maxTextChars,",
    ],
    [{ pattern: 5 }, "option 'pattern' must be a string (found number 5)"],
    [{ group: -1 }, "option 'group' must be a group name or a non-negative integer (found number -1)"],
    [{ all: "yes" }, `option 'all' must be true or false (found string "yes")`],
  ])("refuses %o", (options, message) => {
    const attempt = () => resolveRegexExtractOptions(options as never);
    expect(attempt).toThrow(LlmToolsError);
    expect(attempt).toThrow(`regex_extract: ${message}`);
  });

  it("refuses options that are not an object", () => {
    expect(() => resolveRegexExtractOptions([] as never)).toThrow(
      "regex_extract: options must be an object (found an array of 0)",
    );
  });

  it("rejects the call, not throws synchronously, when options are invalid", async () => {
    const promise = regexExtract({ text: "a", pattern: "a" }, { maxMatches: 0 });
    expect(await rejection(promise)).toMatchObject({ code: "TOOL_OPTION_INVALID" });
  });
});

describe("regex_extract process lifetime", () => {
  it("lets a plain tsx process exit on its own after worker-bound matches", async () => {
    const directory = await mkdtemp(join(tmpdir(), "regex-extract-"));
    const entry = fileURLToPath(new URL("../src/regex-extract/index.ts", import.meta.url));
    const script = join(directory, "main.mts");
    await writeFile(
      script,
      `import { regexExtract } from ${JSON.stringify(entry)};\n` +
        `console.log(await regexExtract({ text: "bye bye", pattern: "(\\\\w+) \\\\1", group: 1 }));\n`,
    );
    try {
      const output = await new Promise<string>((resolve, reject) => {
        execFile(
          process.execPath,
          ["--import", "tsx", script],
          { cwd: fileURLToPath(new URL("..", import.meta.url)), timeout: 15_000 },
          (error, stdout, stderr) =>
            error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
        );
      });
      expect(output.trim()).toBe('"bye"');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
