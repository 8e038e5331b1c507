import { getEventListeners } from "node:events";
import { scriptedModel } from "@routekit/llm/testing";
import { describe, expect, it } from "vitest";
import { runToolLoop, type ToolLoopEvent } from "../src/tool-loop/index.js";
import { addTool, nativeTool, toolMap } from "./support/test-tools.js";

const abortListeners = (signal: AbortSignal): number => getEventListeners(signal, "abort").length;

describe("runToolLoop: a caller abort while tools run", () => {
  it("rejects at the abort, and a tool answering after it is neither reported nor sent", async () => {
    const controller = new AbortController();
    const reason = new Error("caller left");
    let finishTool: (() => void) | undefined;
    const slow = nativeTool("slow", { type: "object" }, () => {
      // The tool ignores its signal and answers only when told to, after the abort.
      setTimeout(() => controller.abort(reason), 5);
      return new Promise((resolve) => {
        finishTool = () => resolve({ output: "late", isError: false });
      });
    });
    const model = scriptedModel([
      {
        toolCalls: [
          { name: "slow", arguments: {} },
          { name: "add", arguments: { a: 1, b: 2 } },
        ],
      },
      { text: "never" },
    ]);
    const events: ToolLoopEvent[] = [];

    await expect(
      runToolLoop({
        model,
        tools: toolMap(slow, addTool()),
        input: "x",
        signal: controller.signal,
        onEvent: (event) => events.push(event),
      }),
    ).rejects.toBe(reason);
    finishTool?.();
    await new Promise((resolve) => setTimeout(resolve, 10));

    const toolEvents = events.filter((event) => event.type.startsWith("tool-call"));
    expect(toolEvents.map((event) => [event.type, "toolName" in event ? event.toolName : ""])).toEqual([
      ["tool-call-started", "slow"],
      ["tool-call-started", "add"],
      ["tool-call-completed", "add"],
    ]);
    expect(model.requests).toHaveLength(1);
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it("starts no tool once the signal has fired, in parallel and one by one", async () => {
    for (const parallelToolCalls of [true, false]) {
      const controller = new AbortController();
      const reason = new Error("stop");
      const started: string[] = [];
      const first = nativeTool("first", { type: "object" }, async () => {
        started.push("first");
        controller.abort(reason);
        return { output: "1", isError: false };
      });
      const second = nativeTool("second", { type: "object" }, async () => {
        started.push("second");
        return { output: "2", isError: false };
      });
      const model = scriptedModel([
        {
          toolCalls: [
            { name: "first", arguments: {} },
            { name: "second", arguments: {} },
          ],
        },
        { text: "never" },
      ]);

      await expect(
        runToolLoop({
          model,
          tools: toolMap(first, second),
          input: "x",
          signal: controller.signal,
          parallelToolCalls,
        }),
      ).rejects.toBe(reason);
      // The first tool aborts the run as it starts: the second is never started, in either mode.
      expect(started).toEqual(["first"]);
    }
  });

  it("leaves no listener on the caller's signal after runs that answered tool calls", async () => {
    const controller = new AbortController();
    for (let run = 0; run < 20; run++) {
      const model = scriptedModel([
        {
          toolCalls: [
            { name: "add", arguments: { a: run, b: 1 } },
            { name: "add", arguments: "{bad" },
          ],
        },
        { text: "done" },
      ]);
      const result = await runToolLoop({
        model,
        tools: toolMap(addTool()),
        input: "x",
        signal: controller.signal,
      });
      expect(result.text).toBe("done");
    }
    expect(abortListeners(controller.signal)).toBe(0);
  });
});
