import { scriptedModel } from "@routekit/llm/testing";
import { describe, expect, it } from "vitest";
import type { ModelRequest } from "../src/model-types.js";

const ask = (content: string): ModelRequest => ({ messages: [{ role: "user", content }], tools: [] });

describe("scriptedModel", () => {
  it("answers from its steps, function steps included, and records each request", async () => {
    const model = scriptedModel([
      {
        toolCalls: [
          { name: "add", arguments: { a: 1, b: 2 } },
          { id: "mine", name: "add", arguments: "{bad" },
        ],
      },
      (request) => ({ text: `you said ${request.messages.length} thing(s)` }),
    ]);
    const request = ask("first");

    const first = await model.generate(request);
    request.messages.push({ role: "user", content: "second" });
    const second = await model.generate(request);

    expect(first.stopReason).toBe("tool_calls");
    expect(first.toolCalls.map((call) => [call.id, call.name, call.argumentsText])).toEqual([
      ["call_1", "add", '{"a":1,"b":2}'],
      ["mine", "add", "{bad"],
    ]);
    expect(first.toolCalls[0]?.arguments).toEqual({ a: 1, b: 2 });
    expect(first.assistant).toMatchObject({ role: "assistant", content: "", toolCalls: first.toolCalls });
    expect(second).toMatchObject({ text: "you said 2 thing(s)", stopReason: "stop", toolCalls: [] });
    expect(model.requests.map((recorded) => recorded.messages.length)).toEqual([1, 2]);
  });

  it("fails clearly when the script runs out", async () => {
    const model = scriptedModel([{ text: "only" }]);
    await model.generate(ask("a"));

    await expect(model.generate(ask("b"))).rejects.toMatchObject({
      code: "MODEL_REQUEST_FAILED",
      message: "scriptedModel: request 2 has no step: the script has 1",
    });
  });
});
