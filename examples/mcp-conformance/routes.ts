// The routes module the official MCP conformance suite runs against: every tool, resource and
// prompt its server scenarios call, written as routes (`routekit-mcp serve --http`).
import { createContext, type RouteBuilder, type RouteContext } from "@routekit/core";
import "@routekit/llm";
import {
  mcpAudio,
  mcpElicit,
  mcpImage,
  mcpLog,
  mcpResource,
  mcpSample,
  mcpText,
  reportProgress,
} from "@routekit/mcp";

/** A 1x1 red PNG and a minimal WAV file, base64 as the suite sends them. */
export const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
export const WAV_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const png = Buffer.from(PNG_BASE64, "base64");

/** Tools whose replies are MCP content, and tools that log or ask the client. */
function richTools(r: RouteBuilder): void {
  r.from("direct:test_image_content")
    .asLlmTool("test_image_content", { description: "Tests image content response" })
    .setBody(() => mcpImage(png, "image/png"));
  r.from("direct:test_audio_content")
    .asLlmTool("test_audio_content", { description: "Tests audio content response" })
    .setBody(() => mcpAudio(WAV_BASE64, "audio/wav"));
  r.from("direct:test_embedded_resource")
    .asLlmTool("test_embedded_resource", { description: "Tests embedded resource content response" })
    .setBody(() =>
      mcpResource({
        uri: "test://embedded-resource",
        mimeType: "text/plain",
        text: "This is an embedded resource content.",
      }),
    );
  r.from("direct:test_multiple_content_types")
    .asLlmTool("test_multiple_content_types", { description: "Tests response with multiple content types" })
    .setBody(() => [
      mcpText("Multiple content types test:"),
      mcpImage(png, "image/png"),
      mcpResource({
        uri: "test://mixed-content-resource",
        mimeType: "application/json",
        text: JSON.stringify({ test: "data", value: 123 }),
      }),
    ]);
  r.from("direct:test_tool_with_logging")
    .asLlmTool("test_tool_with_logging", {
      description: "Tests tool that emits log messages during execution",
    })
    .process(async (exchange) => {
      mcpLog(exchange, "info", "Tool execution started");
      await sleep(50);
      mcpLog(exchange, "info", "Tool processing data");
      await sleep(50);
      mcpLog(exchange, "info", "Tool execution completed");
    })
    .setBody(() => "Tool with logging executed successfully");
  r.from("direct:test_sampling")
    .asLlmTool("test_sampling", {
      description: "Tests server-initiated sampling (LLM completion request)",
      input: { type: "object", properties: { prompt: { type: "string" } }, required: ["prompt"] },
    })
    .transform(async (exchange) => {
      const answer = await mcpSample(exchange, {
        messages: [{ role: "user", content: { type: "text", text: exchange.body.prompt } }],
        maxTokens: 100,
      });
      return `LLM response: ${answer.content.type === "text" ? answer.content.text : "No response"}`;
    });
  r.from("direct:test_elicitation")
    .asLlmTool("test_elicitation", {
      description: "Tests server-initiated elicitation (user input request)",
      input: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
    })
    .transform(async (exchange) => {
      const answer = await mcpElicit(exchange, {
        message: exchange.body.message,
        requestedSchema: {
          type: "object",
          properties: { response: { type: "string", description: "User's response" } },
          required: ["response"],
        },
      });
      return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    });
  r.from("direct:test_elicitation_sep1034_defaults")
    .asLlmTool("test_elicitation_sep1034_defaults", { description: "Tests elicitation with default values" })
    .transform(async (exchange) => {
      const answer = await mcpElicit(exchange, {
        message: "Please review and update the form fields with defaults",
        requestedSchema: {
          type: "object",
          properties: {
            name: { type: "string", description: "User name", default: "John Doe" },
            age: { type: "integer", description: "User age", default: 30 },
            score: { type: "number", description: "User score", default: 95.5 },
            status: {
              type: "string",
              description: "User status",
              enum: ["active", "inactive", "pending"],
              default: "active",
            },
            verified: { type: "boolean", description: "Verification status", default: true },
          },
          required: [],
        },
      });
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    });
  r.from("direct:test_elicitation_sep1330_enums")
    .asLlmTool("test_elicitation_sep1330_enums", { description: "Tests elicitation with enum schemas" })
    .transform(async (exchange) => {
      const answer = await mcpElicit(exchange, {
        message: "Please select options from the enum fields",
        requestedSchema: {
          type: "object",
          properties: {
            untitledSingle: {
              type: "string",
              description: "Select one option",
              enum: ["option1", "option2", "option3"],
            },
            titledSingle: {
              type: "string",
              description: "Select one option with titles",
              oneOf: [
                { const: "value1", title: "First Option" },
                { const: "value2", title: "Second Option" },
                { const: "value3", title: "Third Option" },
              ],
            },
            legacyEnum: {
              type: "string",
              description: "Select one option (legacy)",
              enum: ["opt1", "opt2", "opt3"],
              enumNames: ["Option One", "Option Two", "Option Three"],
            },
            untitledMulti: {
              type: "array",
              description: "Select multiple options",
              minItems: 1,
              maxItems: 3,
              items: { type: "string", enum: ["option1", "option2", "option3"] },
            },
            titledMulti: {
              type: "array",
              description: "Select multiple options with titles",
              minItems: 1,
              maxItems: 3,
              items: {
                anyOf: [
                  { const: "value1", title: "First Choice" },
                  { const: "value2", title: "Second Choice" },
                  { const: "value3", title: "Third Choice" },
                ],
              },
            },
          },
          required: [],
        },
      });
      return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
    });
}

/** Resources, a resource template, and prompts, each a route. */
function resourcesAndPrompts(r: RouteBuilder): void {
  r.from("direct:static-text")
    .asMcpResource("test://static-text", {
      name: "static-text",
      description: "A static text resource",
      mimeType: "text/plain",
    })
    .setBody(() => "This is the content of the static text resource.");
  r.from("direct:static-binary")
    .asMcpResource("test://static-binary", {
      name: "static-binary",
      description: "A static binary resource",
      mimeType: "image/png",
    })
    .setBody(() => png);
  r.from("direct:template")
    .asMcpResource("test://template/{id}/data", {
      name: "template",
      description: "A resource template with parameter substitution",
      mimeType: "application/json",
      complete: { id: (value) => ["123", "456"].filter((id) => id.startsWith(value)) },
    })
    .setBody(({ body }) => ({ id: body.id, templateTest: true, data: `Data for ID: ${body.id}` }));
  r.from("direct:watched-resource")
    .asMcpResource("test://watched-resource", { name: "watched-resource", mimeType: "text/plain" })
    .setBody(() => "Watched resource content");
  r.from("direct:test_simple_prompt")
    .asMcpPrompt("test_simple_prompt", { description: "A simple prompt without arguments" })
    .setBody(() => "This is a simple prompt for testing.");
  r.from("direct:test_prompt_with_arguments")
    .asMcpPrompt("test_prompt_with_arguments", {
      description: "A prompt with required arguments",
      arguments: [
        { name: "arg1", description: "First test argument", required: true },
        { name: "arg2", description: "Second test argument", required: true },
      ],
      complete: { arg1: (value) => ["alpha", "beta"].filter((word) => word.startsWith(value)) },
    })
    .setBody(({ body }) => `Prompt with arguments: arg1='${body.arg1}', arg2='${body.arg2}'`);
  r.from("direct:test_prompt_with_embedded_resource")
    .asMcpPrompt("test_prompt_with_embedded_resource", {
      description: "A prompt that includes an embedded resource",
      arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
    })
    .setBody(({ body }) => [
      mcpResource({
        uri: body.resourceUri ?? "",
        mimeType: "text/plain",
        text: "Embedded resource content for testing.",
      }),
      "Please process the embedded resource above.",
    ]);
  r.from("direct:test_prompt_with_image")
    .asMcpPrompt("test_prompt_with_image", { description: "A prompt that includes image content" })
    .setBody(() => [mcpImage(png, "image/png"), "Please analyze the image above."]);
}

export async function context(): Promise<RouteContext> {
  const routes = createContext({ name: "mcp-conformance", logLevel: "warn" });
  await routes.addRoutes((r) => {
    r.from("direct:test_simple_text")
      .asLlmTool("test_simple_text", { description: "Tests simple text content response" })
      .setBody(() => "This is a simple text response for testing.");
    r.from("direct:test_error_handling")
      .asLlmTool("test_error_handling", { description: "Tests error response handling" })
      .process(() => {
        throw new Error("This tool intentionally returns an error for testing");
      });
    r.from("direct:test_tool_with_progress")
      .asLlmTool("test_tool_with_progress", { description: "Tests tool that reports progress notifications" })
      .process(async (exchange) => {
        for (const step of [0, 50, 100]) {
          reportProgress(exchange, step, 100, `Completed step ${step} of 100`);
          if (step < 100) await sleep(50);
        }
      })
      .setBody(() => "progress reported");
    r.from("direct:json_schema_2020_12_tool")
      .asLlmTool("json_schema_2020_12_tool", {
        description: "Tool with JSON Schema 2020-12 features (SEP-1613)",
        input: {
          $schema: "https://json-schema.org/draft/2020-12/schema",
          type: "object",
          $defs: {
            address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } } },
          },
          properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" } },
          additionalProperties: false,
        },
      })
      .setBody(({ body }) => `JSON Schema 2020-12 tool called with: ${JSON.stringify(body)}`);
    r.from("direct:test_reconnection")
      .asLlmTool("test_reconnection", { description: "Tests SSE stream disconnection (SEP-1699)" })
      .process(async () => {
        await sleep(100);
      })
      .setBody(() => "Reconnection test completed successfully.");
    richTools(r);
    resourcesAndPrompts(r);
  });
  return routes;
}

export const mcp = {
  tools: (tool: { source?: string }) => tool.source === "route",
  resources: () => true,
  prompts: () => true,
};
