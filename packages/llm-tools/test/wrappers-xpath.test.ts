import type { RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";
import { ToolInputError, XPATH_INPUT_SCHEMA, XPathTool } from "../src/index.js";
import { requestFailure, startToolContext } from "./support/tool-context.js";

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop();
  context = undefined;
});

const feed = "<feed><entry><title>One</title></entry><entry><title>Two</title></entry></feed>";

describe("XPathTool", () => {
  it("mounts xpath on direct:llm.xpath and answers objects and JSON text", async () => {
    context = await startToolContext(new XPathTool());
    expect(await context.request("direct:llm.xpath", { xml: feed, xpath: "string(//title)" })).toBe("One");
    expect(
      await context.request("direct:llm.xpath", JSON.stringify({ xml: feed, xpath: "count(//entry)" })),
    ).toBe("2");
    expect(await context.request("direct:llm.xpath", { xml: feed, xpath: "//summary" })).toBeNull();
  });

  it("registers the tool with its schema", async () => {
    context = await startToolContext(new XPathTool());
    expect(context.tools.get("xpath")?.inputSchema).toEqual(XPATH_INPUT_SCHEMA);
  });

  it("with a fixed expression takes only xml (schema and input), at its own endpoint", async () => {
    context = await startToolContext(
      new XPathTool({
        endpointUri: "direct:last-title",
        xpath: "string(//entry[last()]/title)",
        description: "Last title.",
      }),
    );
    const tool = context.tools.get("xpath");
    expect(tool?.description).toBe("Last title.");
    expect(tool?.inputSchema).toMatchObject({ required: ["xml"] });
    expect(await context.request("direct:last-title", { xml: feed })).toBe("Two");
    expect(await context.request("direct:last-title", feed)).toBe("Two");
  });

  it("fails with a message naming the tool and the key", async () => {
    context = await startToolContext(new XPathTool());
    const error = await requestFailure(context, "direct:llm.xpath", { xml: feed });
    expect(error).toBeInstanceOf(ToolInputError);
    expect(error.message).toBe("xpath: required key 'xpath' is missing");
  });

  it("refuses bad options at construction", () => {
    expect(() => new XPathTool({ xpath: "//[" })).toThrow("xpath: option 'xpath' is invalid");
  });
});
