import { createContext, type RouteContext } from "@routekit/core";
import { collectingLogger } from "@routekit/test-support";
import { Subject } from "rxjs";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop({ timeoutMs: 2_000 });
  context = undefined;
});

/** The consumers' failure lines, with each exchange id as `<id>`. */
const failureLines = (lines: string[]): string[] =>
  lines
    .filter((line) => / exchange \S+ failed/.test(line))
    .map((line) => line.replace(/exchange \S+ failed/, "exchange <id> failed"));

const fail = (): never => {
  throw new Error("broke");
};

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 5_000) throw new Error("gave up waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("a consumer whose route fails logs one line per exchange, the same way everywhere", () => {
  it("seda: an InOnly message nobody waits for", async () => {
    const logger = collectingLogger();
    context = createContext({ logger });
    await context.addRoutes((r) => r.from("seda:work").routeId("worker").process(fail));
    await context.start();
    await context.send("seda:work", 1);
    await context.send("seda:work", 2);
    await until(() => failureLines(logger.lines).length === 2);
    const line = "error seda:work: exchange <id> failed in route 'worker' at step #1 process: Error: broke";
    expect(failureLines(logger.lines)).toEqual([line, line]);
  });

  it("seda: not when the producer waits, since its caller gets the error", async () => {
    const logger = collectingLogger();
    context = createContext({ logger });
    await context.addRoutes((r) => r.from("seda:asked").routeId("answers").process(fail));
    await context.start();
    await expect(context.request("seda:asked", 1)).rejects.toThrow("broke");
    expect(failureLines(logger.lines)).toEqual([]);
  });

  it("timer: each failed tick", async () => {
    const logger = collectingLogger();
    context = createContext({ logger });
    await context.addRoutes((r) =>
      r.from("timer:tick?period=5&repeatCount=2").routeId("ticks").process(fail),
    );
    await context.start();
    await until(() => failureLines(logger.lines).length === 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const line =
      "error timer:tick?period=5&repeatCount=2: exchange <id> failed in route 'ticks' at step #1 process: Error: broke";
    expect(failureLines(logger.lines)).toEqual([line, line]);
  });

  it("observable source: each failed value", async () => {
    const logger = collectingLogger();
    context = createContext({ logger });
    const values = new Subject<number>();
    await context.addRoutes((r) => r.from(values).routeId("values").process(fail));
    await context.start();
    values.next(1);
    values.next(2);
    await until(() => failureLines(logger.lines).length === 2);
    expect(failureLines(logger.lines)).toEqual([
      expect.stringMatching(
        /^error observable:source-\d+: exchange <id> failed in route 'values' at step #1 process: Error: broke$/,
      ),
      expect.stringMatching(/^error observable:source-\d+: exchange <id> failed in route 'values'/),
    ]);
  });

  it("a line names a long, multi-line error on one bounded line", async () => {
    const logger = collectingLogger();
    context = createContext({ logger });
    await context.addRoutes((r) =>
      r
        .from("seda:long")
        .routeId("long")
        .process(() => {
          throw new Error(`first\nsecond${"x".repeat(10_000)}`);
        }),
    );
    await context.start();
    await context.send("seda:long", 1);
    await until(() => failureLines(logger.lines).length === 1);
    const [line] = failureLines(logger.lines);
    expect(line).toContain("Error: first second");
    expect(line).not.toContain("\n");
    expect(line?.length).toBeLessThan(2_200);
  });
});
