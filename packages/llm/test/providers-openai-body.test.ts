import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createTool } from "../src/adapter/create-tool.js";
import { openAiChat } from "../src/providers/index.js";
import { openAiTextReply } from "./support/openai-server.js";

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/** A server on 127.0.0.1 recording each request body as the text it received. */
async function recordBodies(): Promise<{ baseURL: string; bodies: string[] }> {
  const bodies: string[] = [];
  server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      bodies.push(Buffer.concat(chunks).toString("utf8"));
      const text = JSON.stringify(openAiTextReply("ok"));
      response.writeHead(200, { "content-type": "application/json" });
      response.end(text);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return { baseURL: `http://127.0.0.1:${port}/v1`, bodies };
}

const lookup = createTool({
  name: "lookup",
  description: 'Finds a "word" — in any language.',
  inputSchema: {
    type: "object",
    properties: { word: { type: "string", description: "ünïcode \u2028 and \\ escapes" } },
    required: ["word"],
  },
  execute: () => "found",
});

describe("openAiChat: the request body text", () => {
  it("writes every field in order, as JSON.stringify writes the same body", async () => {
    const { baseURL, bodies } = await recordBodies();
    const model = openAiChat({
      model: "gpt-4o-mini",
      baseURL,
      apiKey: "sk-test",
      maxTokensParameter: "max_completion_tokens",
    });
    const output = {
      name: "verdict",
      description: "The verdict.",
      schema: { type: "object", properties: { ok: { type: "boolean" } } },
    };

    await model.generate({
      messages: [{ role: "user", content: 'Say "hi"\n' }],
      system: "Be brief.",
      tools: [lookup, lookup],
      parallelToolCalls: false,
      temperature: 0.25,
      maxTokens: 64,
      output,
    });

    const tool = {
      type: "function",
      function: {
        name: "lookup",
        description: 'Finds a "word" — in any language.',
        parameters: lookup.inputSchema,
      },
    };
    expect(bodies[0]).toBe(
      JSON.stringify({
        model: "gpt-4o-mini",
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: 'Say "hi"\n' },
        ],
        tools: [tool, tool],
        parallel_tool_calls: false,
        temperature: 0.25,
        max_completion_tokens: 64,
        response_format: JSON.parse(bodies[0] ?? "{}").response_format,
      }),
    );
    expect(JSON.parse(bodies[0] ?? "{}").response_format).toMatchObject({
      type: "json_schema",
      json_schema: { name: "verdict" },
    });
  });

  it("writes a body without tools or options, and the same tools again in a later request", async () => {
    const { baseURL, bodies } = await recordBodies();
    const model = openAiChat({ model: "m", baseURL, apiKey: "sk-test" });

    await model.generate({ messages: [{ role: "user", content: "a" }], tools: [] });
    await model.generate({
      messages: [{ role: "user", content: "b" }],
      tools: [lookup],
      parallelToolCalls: true,
    });
    await model.generate({ messages: [{ role: "user", content: "c" }], tools: [lookup] });

    expect(bodies[0]).toBe('{"model":"m","messages":[{"role":"user","content":"a"}]}');
    const toolText = JSON.stringify({
      type: "function",
      function: { name: "lookup", description: lookup.description, parameters: lookup.inputSchema },
    });
    expect(bodies[1]).toBe(
      `{"model":"m","messages":[{"role":"user","content":"b"}],"tools":[${toolText}],"parallel_tool_calls":true}`,
    );
    expect(bodies[2]).toBe(`{"model":"m","messages":[{"role":"user","content":"c"}],"tools":[${toolText}]}`);
  });
});
