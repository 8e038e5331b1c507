import type { RouteContext } from "@routekit/core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  REGEX_EXTRACT_INPUT_SCHEMA,
  RegexExtractTool,
  shutdownRegexWorkers,
  ToolInputError,
} from "../src/index.js";
import { requestFailure, startToolContext } from "./support/tool-context.js";

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop();
  context = undefined;
});
afterAll(() => shutdownRegexWorkers());

const text = "order A-17 shipped, order B-4 pending";

describe("RegexExtractTool", () => {
  it("mounts regex_extract on direct:llm.regex_extract and answers objects and JSON text", async () => {
    context = await startToolContext(new RegexExtractTool());
    const uri = "direct:llm.regex_extract";
    expect(await context.request(uri, { text, pattern: "[A-Z]-\\d+" })).toBe('"A-17"');
    expect(
      await context.request(uri, JSON.stringify({ text, pattern: "[A-Z]-(\\d+)", group: 1, all: true })),
    ).toBe('["17","4"]');
    expect(await context.request(uri, { text, pattern: "order (?<id>\\S+) pending", group: "id" })).toBe(
      '"B-4"',
    );
    expect(await context.request(uri, { text, pattern: "cancelled" })).toBe("null");
    expect(context.tools.get("regex_extract")?.inputSchema).toEqual(REGEX_EXTRACT_INPUT_SCHEMA);
  });

  it("removes the keys its options fix from the schema", async () => {
    context = await startToolContext(
      new RegexExtractTool({ endpointUri: "direct:ids", pattern: "[A-Z]-\\d+", all: true }),
    );
    const schema = context.tools.get("regex_extract")?.inputSchema as {
      properties: object;
      required: string[];
    };
    expect(Object.keys(schema.properties)).toEqual(["text", "group"]);
    expect(schema.required).toEqual(["text"]);
    expect(await context.request("direct:ids", { text })).toBe('["A-17","B-4"]');
    expect(await context.request("direct:ids", text)).toBe('["A-17","B-4"]');
  });

  it("names the tool and the key for bad input", async () => {
    context = await startToolContext(new RegexExtractTool());
    const error = await requestFailure(context, "direct:llm.regex_extract", { text });
    expect(error).toBeInstanceOf(ToolInputError);
    expect(error.message).toBe("regex_extract: required key 'pattern' is missing");
  });

  it("refuses bad options at construction", () => {
    expect(() => new RegexExtractTool({ matchTimeoutMs: 0 })).toThrow(
      "regex_extract: option 'matchTimeoutMs'",
    );
  });
});
