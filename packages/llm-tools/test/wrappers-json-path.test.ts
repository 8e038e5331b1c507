import type { RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";
import { JSON_PATH_INPUT_SCHEMA, JsonPathTool, ToolInputError } from "../src/index.js";
import { requestFailure, startToolContext } from "./support/tool-context.js";

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop();
  context = undefined;
});

const document = JSON.stringify({
  items: [
    { sku: "a-1", qty: 2 },
    { sku: "b-2", qty: 0 },
  ],
});

describe("JsonPathTool", () => {
  it("mounts json_path on direct:llm.json_path and answers objects and JSON text", async () => {
    context = await startToolContext(new JsonPathTool());
    expect(await context.request("direct:llm.json_path", { json: document, path: "$.items[0].sku" })).toBe(
      '"a-1"',
    );
    expect(
      await context.request("direct:llm.json_path", JSON.stringify({ json: document, path: "$..sku" })),
    ).toBe('["a-1","b-2"]');
    expect(await context.request("direct:llm.json_path", { json: document, path: "$.missing" })).toBe("null");
  });

  it("registers the tool with its name, description and input schema", async () => {
    context = await startToolContext(new JsonPathTool());
    const tool = context.tools.get("json_path");
    expect(tool?.name).toBe("json_path");
    expect(tool?.description).toMatch(/JSONPath/);
    expect(tool?.inputSchema).toEqual(JSON_PATH_INPUT_SCHEMA);
  });

  it("takes endpointUri and description; a fixed path makes the document the whole input", async () => {
    context = await startToolContext(
      new JsonPathTool({
        endpointUri: "direct:first-sku",
        description: "First SKU of an order.",
        path: "$.items[0].sku",
      }),
    );
    expect(context.tools.get("json_path")?.description).toBe("First SKU of an order.");
    expect(context.tools.get("json_path")?.inputSchema).toMatchObject({ type: "object" });
    expect(await context.request("direct:first-sku", JSON.parse(document))).toBe('"a-1"');
    expect(await context.request("direct:first-sku", document)).toBe('"a-1"');
  });

  it("fails with a message naming the tool and the key", async () => {
    context = await startToolContext(new JsonPathTool());
    const error = await requestFailure(context, "direct:llm.json_path", { json: 12 });
    expect(error).toBeInstanceOf(ToolInputError);
    expect(error.message).toContain("json_path: key 'json' must be JSON text, an object or an array");
  });

  it("refuses bad options at construction", () => {
    expect(() => new JsonPathTool({ path: "$[?(" })).toThrow("json_path: option 'path' is invalid");
    expect(() => new JsonPathTool({ maxDocumentBytes: 1.5 })).toThrow("option 'maxDocumentBytes'");
  });
});
