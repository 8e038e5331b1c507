// Names a model or a caller chooses are echoed in errors cut short, and hinted only when short.
import { scriptedModel } from "@routekit/llm/testing";
import { describe, expect, it } from "vitest";
import { LlmError, ToolRegistry } from "../src/tool-contract.js";
import { runToolLoop } from "../src/tool-loop/index.js";
import { addTool, nativeTool, toolMap } from "./support/test-tools.js";

const HUGE = `add${"d".repeat(1024 * 1024)}`;

describe("error texts built from names", () => {
  it("ToolRegistry.resolve cuts a huge unknown name and lists at most ten unknown names", () => {
    const registry = new ToolRegistry([{ name: "add", execute: () => "0" }]);
    let caught: unknown;
    try {
      registry.resolve([HUGE, ...Array.from({ length: 5000 }, (_, index) => `missing_${index}`)]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LlmError);
    const message = (caught as LlmError).message;
    expect(message).toContain(`'addddd`);
    expect(message).toContain(`(${HUGE.length} chars)`);
    expect(message).toContain("and 4991 more");
    expect(message).not.toContain("did you mean 'add'");
    expect(message.length).toBeLessThan(1000);
  });

  it("the tool loop answers a model's huge unknown tool name with a short error result", async () => {
    const model = scriptedModel([{ toolCalls: [{ name: HUGE, arguments: {} }] }, { text: "ok" }]);
    const result = await runToolLoop({ model, tools: toolMap(addTool()), input: "x" });
    const toolMessage = result.messages.find((message) => message.role === "tool");
    const output = JSON.stringify(toolMessage);
    expect(output).toContain("unknown tool 'adddd");
    expect(output).toContain(`(${HUGE.length} chars)`);
  });

  it("invalid arguments are described with cut paths and at most twenty issues", async () => {
    const numbers = nativeTool(
      "numbers",
      { type: "object", additionalProperties: { type: "number" } },
      async () => ({ output: "ok", isError: false }),
    );
    const args: Record<string, unknown> = { [`k${"e".repeat(1024 * 1024)}`]: "not a number" };
    for (let index = 0; index < 5000; index++) args[`key${index}`] = "x";
    const model = scriptedModel([{ toolCalls: [{ name: "numbers", arguments: args }] }, { text: "ok" }]);
    const result = await runToolLoop({ model, tools: toolMap(numbers), input: "x" });
    const toolMessage = result.messages.find((message) => message.role === "tool");
    const output = JSON.stringify(toolMessage);
    expect(output).toContain("must be number");
    expect(output).toMatch(/and \d+ more/);
    expect(output.length).toBeLessThan(10_000);
  });
});
