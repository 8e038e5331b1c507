import { createTool } from "@routekit/llm";
import { describe, expect, it } from "vitest";
import { withKnownKeywords } from "../src/client/lenient-schema.js";

describe("withKnownKeywords", () => {
  it("drops keywords the validator refuses, never property names, and keeps the rest", () => {
    const schema = {
      type: "object",
      "x-vendor": true,
      properties: {
        example: { type: "string", example: "hi" },
        city: { type: "string", description: "a city", examples: ["Oslo"] },
      },
      required: ["city"],
    };
    const tool = withKnownKeywords(schema, (inputSchema) =>
      createTool({ name: "lenient", inputSchema, execute: () => "ok" }),
    );
    expect(tool.inputSchema).toEqual({
      type: "object",
      properties: {
        example: { type: "string" },
        city: { type: "string", description: "a city", examples: ["Oslo"] },
      },
      required: ["city"],
    });
  });

  it("throws other schema errors", () => {
    expect(() =>
      withKnownKeywords({ type: "string" }, (inputSchema) =>
        createTool({ name: "bad", inputSchema, execute: () => 1 }),
      ),
    ).toThrow(/root must be type "object"/);
  });
});
