import { createContext, type Logger, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";
import { httpPlugin, httpServerOf } from "../src/index.js";

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop({ timeoutMs: 2_000 });
  context = undefined;
});

function collectingLogger(lines: string[]): Logger {
  const write = (level: string) => (message: string) => {
    lines.push(`${level} ${message}`);
  };
  return {
    trace: write("trace"),
    debug: write("debug"),
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
  };
}

/** The consumers' failure lines, with each exchange id as `<id>`. */
const failureLines = (lines: string[]): string[] =>
  lines
    .filter((line) => / exchange \S+ failed/.test(line))
    .map((line) => line.replace(/exchange \S+ failed/, "exchange <id> failed"));

describe("http: a failing route is logged like every consumer's", () => {
  it("one line per failed request, in the consumers' shared form, naming the reply", async () => {
    const lines: string[] = [];
    context = createContext({ logger: collectingLogger(lines) });
    context.use(httpPlugin({ requestTimeoutMs: 200 }));
    await context.addRoutes((r) => {
      r.from("http:/fail")
        .routeId("fails")
        .process(() => {
          throw new Error("boom\nforged line");
        });
      r.from("http:/slow")
        .routeId("slow")
        .process(() => new Promise((resolve) => setTimeout(resolve, 1_000)));
    });
    await context.start();
    const url = httpServerOf(context).url;
    expect((await fetch(`${url}/fail`)).status).toBe(500);
    expect((await fetch(`${url}/fail`)).status).toBe(500);
    const slow = await fetch(`${url}/slow`);
    await slow.text();

    const failed =
      "error http:/fail (GET /fail): exchange <id> failed in route 'fails' at step #1 process: Error: boom forged line; HTTP 500 sent";
    expect(failureLines(lines)).toEqual([
      failed,
      failed,
      expect.stringMatching(
        new RegExp(`^error http:/slow \\(GET /slow\\): exchange <id> failed: .*; HTTP ${slow.status} sent$`),
      ),
    ]);
  });
});
