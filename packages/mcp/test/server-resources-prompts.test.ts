// Routes as MCP resources, resource templates and prompts; rich tool results; log lines, sampling
// and elicitation from inside a tool route — over Streamable HTTP on 127.0.0.1 with the SDK's Client.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { createContext, type RouteContext } from "@routekit/core";
import "@routekit/llm";
import { afterEach, describe, expect, it } from "vitest";
import {
  MCP_RESOURCE_MIME_TYPE_HEADER,
  mcpElicit,
  mcpImage,
  mcpLog,
  mcpResource,
  mcpSample,
  mcpText,
  mcpTools,
  notifyResourceUpdated,
  serveMcpHttp,
} from "../src/index.js";

const TOKEN = "test-token-0123456789";
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
const cleanups: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function served(capabilities: ConstructorParameters<typeof Client>[1] = {}) {
  const context: RouteContext = createContext({ logLevel: "warn" });
  await context.addRoutes((r) => {
    r.from("direct:readme")
      .asMcpResource("docs://readme", { description: "the readme" })
      .setBody(() => "# hello");
    r.from("direct:logo")
      .asMcpResource("docs://logo", { mimeType: "image/png" })
      .setBody(() => PNG);
    r.from("direct:order")
      .asMcpResource("orders://{id}", {
        complete: { id: (typed) => ["A-1", "A-2", "B-1"].filter((id) => id.startsWith(typed)) },
      })
      .setBody(({ body }) => ({ id: body.id, status: "shipped" }));
    r.from("direct:names").setBody(({ body }) => {
      const { value } = body as { value: string };
      return ["Ada", "Alan", "Grace"].filter((name) => name.startsWith(value));
    });
    r.from("direct:hidden")
      .asMcpResource("docs://hidden")
      .setBody(() => "secret");
    r.from("direct:greet")
      .asMcpPrompt("greet", {
        arguments: [{ name: "who", required: true }],
        complete: { who: "direct:names" },
      })
      .setBody(({ body }) => [
        { role: "assistant" as const, content: `Hello ${body.who}` },
        mcpImage(PNG, "image/png"),
        mcpResource({ uri: "docs://readme", text: "# hello" }),
      ]);
    r.from("direct:picture")
      .asLlmTool("picture", { description: "a picture and a caption" })
      .setBody(() => [mcpText("a logo"), mcpImage(PNG, "image/png")]);
    r.from("direct:json")
      .asLlmTool("json", { description: "a plain object" })
      .setBody(() => ({ type: "image", data: "x" }));
    r.from("direct:chatty")
      .asLlmTool("chatty", { description: "logs" })
      .process((exchange) => {
        mcpLog(exchange, "debug", "a detail");
        mcpLog(exchange, "warning", { rows: 3 });
      })
      .setBody(() => "done");
    r.from("direct:steps")
      .asLlmTool("steps", { description: "log steps" })
      .log("detail of ${body}", "debug")
      .log("reading the ledger", { level: "info", logger: "ledger" })
      .log("3 rows skipped", "warn")
      .setBody(() => "logged");
    r.from("direct:ask")
      .asLlmTool("ask", { description: "asks the client" })
      .transform(async (exchange) => {
        const sampled = await mcpSample(exchange, {
          messages: [{ role: "user", content: { type: "text", text: "colour?" } }],
          maxTokens: 10,
        });
        const elicited = await mcpElicit(exchange, {
          message: "your name",
          requestedSchema: { type: "object", properties: { name: { type: "string", default: "Ada" } } },
        });
        return `${sampled.content.type === "text" ? sampled.content.text : "?"} / ${JSON.stringify(elicited.content)}`;
      });
  });
  await context.start();
  const server = await serveMcpHttp(context, {
    tools: () => true,
    resources: (resource) => resource.uri !== "docs://hidden",
    prompts: ["greet"],
    port: 0,
    token: TOKEN,
  });
  const client = new Client({ name: "test-client", version: "1.0.0" }, capabilities);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  cleanups.push(
    () => context.stop(),
    () => server.close(),
    () => client.close(),
  );
  return { client, context, url: server.url };
}

async function servedUrl() {
  return await served();
}

describe("routes as MCP resources and prompts", () => {
  it("lists and reads text, binary and templated resources; hides the ones not selected", async () => {
    const { client } = await served();
    const listed = await client.listResources();
    expect(listed.resources.map((resource) => resource.uri)).toEqual(["docs://readme", "docs://logo"]);
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((template) => template.uriTemplate)).toEqual(["orders://{id}"]);
    expect((await client.readResource({ uri: "docs://readme" })).contents).toEqual([
      { uri: "docs://readme", mimeType: "text/plain", text: "# hello" },
    ]);
    expect((await client.readResource({ uri: "docs://logo" })).contents).toEqual([
      { uri: "docs://logo", mimeType: "image/png", blob: PNG.toString("base64") },
    ]);
    expect((await client.readResource({ uri: "orders://A-2" })).contents[0]).toEqual({
      uri: "orders://A-2",
      mimeType: "application/json",
      text: JSON.stringify({ id: "A-2", status: "shipped" }),
    });
    await expect(client.readResource({ uri: "docs://hidden" })).rejects.toThrow(
      /unknown resource 'docs:\/\/hidden'/,
    );
    // A long URI of the client's is shown cut short, with no nearest-name search over it.
    const long = `docs://${"x".repeat(100_000)}`;
    const refused = await client.readResource({ uri: long }).catch((error: Error) => error.message);
    expect(refused).toMatch(/unknown resource 'docs:\/\/x{193}'$/);
  });

  it("completes template variables from a function and prompt arguments from a route, and notifies subscribers of updates", async () => {
    const { client, context } = await served();
    const completion = await client.complete({
      ref: { type: "ref/resource", uri: "orders://{id}" },
      argument: { name: "id", value: "A" },
    });
    expect(completion.completion.values).toEqual(["A-1", "A-2"]);
    const names = await client.complete({
      ref: { type: "ref/prompt", name: "greet" },
      argument: { name: "who", value: "A" },
    });
    expect(names.completion).toEqual({ values: ["Ada", "Alan"], total: 2, hasMore: false });
    const updated = new Promise<string>((resolve) => {
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
        resolve(notification.params.uri),
      );
    });
    await client.subscribeResource({ uri: "docs://readme" });
    notifyResourceUpdated(context, "docs://readme");
    expect(await updated).toBe("docs://readme");
  });

  it("gets a prompt's messages with text, image and an embedded resource; refuses a missing argument", async () => {
    const { client } = await served();
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["greet"]);
    const prompt = await client.getPrompt({ name: "greet", arguments: { who: "Ada" } });
    expect(prompt.messages).toEqual([
      { role: "assistant", content: { type: "text", text: "Hello Ada" } },
      { role: "user", content: { type: "image", data: PNG.toString("base64"), mimeType: "image/png" } },
      { role: "user", content: { type: "resource", resource: { uri: "docs://readme", text: "# hello" } } },
    ]);
    await expect(client.getPrompt({ name: "greet" })).rejects.toThrow(/prompt 'greet' needs argument 'who'/);
  });
});

describe("rich tool results, logging and asking the client", () => {
  it("sends MCP content parts as content; a plain object stays JSON text", async () => {
    const { client } = await served();
    const picture = await client.callTool({ name: "picture", arguments: {} });
    expect(picture.content).toEqual([
      { type: "text", text: "a logo" },
      { type: "image", data: PNG.toString("base64"), mimeType: "image/png" },
    ]);
    const json = await client.callTool({ name: "json", arguments: {} });
    expect(json.content).toEqual([{ type: "text", text: JSON.stringify({ type: "image", data: "x" }) }]);
  });

  it("sends a tool route's log lines at or above the level the client set", async () => {
    const { client } = await served();
    const lines: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      lines.push(notification.params);
    });
    await client.setLoggingLevel("info");
    await client.callTool({ name: "chatty", arguments: {} });
    expect(lines).toEqual([{ level: "warning", data: { rows: 3 } }]);
  });

  it("sends the lines of a tool route's log steps at or above the level the client set", async () => {
    const { client, context } = await served();
    const lines: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      lines.push(notification.params);
    });
    await client.setLoggingLevel("info");
    expect((await client.callTool({ name: "steps", arguments: {} })).content).toEqual([
      { type: "text", text: "logged" },
    ]);
    expect(lines).toEqual([
      { level: "info", data: "reading the ledger", logger: "ledger" },
      { level: "warning", data: "3 rows skipped", logger: expect.any(String) },
    ]);
    await client.setLoggingLevel("debug");
    lines.length = 0;
    await client.callTool({ name: "steps", arguments: {} });
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ level: "debug", data: "detail of {}" });
    // Outside an MCP call the same steps only reach the context's log.
    lines.length = 0;
    expect(await context.request("direct:steps", {})).toBe("logged");
    expect(lines).toEqual([]);
  });

  it("asks the client for sampling and elicitation and gets the answers back in the exchange", async () => {
    const { client } = await served({ capabilities: { sampling: {}, elicitation: { form: {} } } });
    client.setRequestHandler(CreateMessageRequestSchema, () => ({
      role: "assistant",
      model: "test-model",
      content: { type: "text", text: "teal" },
    }));
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      const params = request.params;
      const field = "requestedSchema" in params ? params.requestedSchema.properties.name : undefined;
      const name = field !== undefined && "default" in field ? String(field.default) : "none";
      return { action: "accept", content: { name } };
    });
    const result = await client.callTool({ name: "ask", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: 'teal / {"name":"Ada"}' }]);
  });

  it("fails the call with a clear error when the client lacks the capability", async () => {
    const { client } = await served();
    const result = await client.callTool({ name: "ask", arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/did not declare the 'sampling' capability/);
  });
});

describe("a routekit client answering a server's requests", () => {
  it("answers elicitation with a route (defaults filled in) and sampling with a function", async () => {
    const server = await serveMcpHttp(
      await (async () => {
        const context = createContext({ logLevel: "warn" });
        await context.addRoutes((r) => {
          r.from("direct:ask")
            .asLlmTool("ask", { description: "asks the client" })
            .transform(async (exchange) => {
              const sampled = await mcpSample(exchange, {
                messages: [{ role: "user", content: { type: "text", text: "colour?" } }],
                maxTokens: 10,
              });
              const elicited = await mcpElicit(exchange, {
                message: "your name",
                requestedSchema: {
                  type: "object",
                  properties: {
                    name: { type: "string" },
                    size: { type: "string", enum: ["S", "L"], default: "L" },
                  },
                },
              });
              return `${sampled.content.type === "text" ? sampled.content.text : "?"} / ${JSON.stringify(elicited.content)}`;
            });
        });
        await context.start();
        cleanups.push(() => context.stop());
        return context;
      })(),
      { tools: ["ask"], port: 0, token: TOKEN },
    );
    cleanups.push(() => server.close());
    const caller = createContext({ logLevel: "warn" });
    const asked: string[] = [];
    await caller.addRoutes((r) => {
      r.from("direct:answer").setBody(({ body }) => {
        asked.push((body as { message: string }).message);
        return { name: "Ada" };
      });
    });
    caller.use(
      mcpTools({
        name: "remote",
        url: server.url,
        headers: { authorization: `Bearer ${TOKEN}` },
        elicitation: "direct:answer",
        sampling: (request) => ({
          role: "assistant",
          model: "local",
          content: { type: "text", text: `teal (${request.maxTokens})` },
        }),
        reconnect: false,
      }),
    );
    await caller.start();
    cleanups.push(() => caller.stop());
    const result = await caller.request<string>("mcp:remote/ask", {});
    expect(result).toBe('teal (10) / {"name":"Ada","size":"L"}');
    expect(asked).toEqual(["your name"]);
  });
});

describe("a routekit client reading a server's resources and prompts", () => {
  async function caller(url: string) {
    const context = createContext({ logLevel: "warn" });
    context.use(
      mcpTools({ name: "docs", url, headers: { authorization: `Bearer ${TOKEN}` }, reconnect: false }),
    );
    await context.start();
    cleanups.push(() => context.stop());
    return context;
  }

  it("reads text, binary and templated resources and gets prompts as endpoints", async () => {
    const { url } = await servedUrl();
    const context = await caller(url);
    expect(await context.request("mcp:docs/resource/docs://readme", null)).toBe("# hello");
    const logo = await context.requestExchange("mcp:docs/resource/docs://logo");
    expect(Buffer.from(logo.body as Uint8Array).equals(PNG)).toBe(true);
    expect(logo.headers[MCP_RESOURCE_MIME_TYPE_HEADER]).toBe("image/png");
    expect(JSON.parse(await context.request<string>("mcp:docs/resource/orders://A-17", null))).toEqual({
      id: "A-17",
      status: "shipped",
    });
    const prompt = await context.request("mcp:docs/prompt/greet", { who: "Ada" });
    expect(prompt).toEqual([
      { role: "assistant", content: { type: "text", text: "Hello Ada" } },
      { role: "user", content: { type: "image", data: PNG.toString("base64"), mimeType: "image/png" } },
      { role: "user", content: { type: "resource", resource: { uri: "docs://readme", text: "# hello" } } },
    ]);
  });

  it("fails with the server's error for an unknown resource, a missing or bad argument", async () => {
    const { url } = await servedUrl();
    const context = await caller(url);
    await expect(context.request("mcp:docs/resource/docs://hidden", null)).rejects.toThrow(
      /mcp 'docs': resource 'docs:\/\/hidden': .*unknown resource 'docs:\/\/hidden'/,
    );
    await expect(context.request("mcp:docs/prompt/greet", {})).rejects.toThrow(
      /prompt 'greet' needs argument 'who'/,
    );
    await expect(context.request("mcp:docs/prompt/greet", { who: { name: "Ada" } })).rejects.toThrow(
      /prompt argument 'who' must be a string, number or boolean \(found object\)/,
    );
    await expect(context.request("mcp:docs/prompt/", {})).rejects.toThrow(
      /expected mcp:SERVER\/prompt\/NAME/,
    );
  });
});

describe("mcpTools options of the client side", () => {
  it("checks authProvider, elicitation and sampling, naming what was found", () => {
    expect(() => mcpTools({ name: "files", command: "node", authProvider: {} as never })).toThrow(
      /option 'authProvider' needs a 'url'/,
    );
    expect(() =>
      mcpTools({ name: "files", url: "http://127.0.0.1:1/mcp", authProvider: 5 as never }),
    ).toThrow(/option 'authProvider' must be an OAuthClientProvider of the MCP SDK \(found number 5\)/);
    expect(() => mcpTools({ name: "files", url: "http://127.0.0.1:1/mcp", elicitation: "" })).toThrow(
      /option 'elicitation' must be a route's endpoint URI or a function \(found string ""\)/,
    );
    expect(() => mcpTools({ name: "files", url: "http://127.0.0.1:1/mcp", sampling: 3 as never })).toThrow(
      /option 'sampling' must be a route's endpoint URI or a function \(found number 3\)/,
    );
    expect(() =>
      mcpTools({ name: "files", url: "http://127.0.0.1:1/mcp", authorizationCode: "code" as never }),
    ).toThrow(/option 'authorizationCode' must be a function, with a 'url' and an 'authProvider'/);
    expect(() => mcpTools({ name: "files", command: "node", reconnect: { maxDelay: 5 } as never })).toThrow(
      /mcpTools\('files'\): unknown option 'reconnect.maxDelay' \(did you mean 'maxDelayMs'\?\)/,
    );
    expect(() => mcpTools({ name: "files", command: "node", callTimeoutMs: 0.5 })).toThrow(
      /option 'callTimeoutMs' must be a whole number from 1 to 2147483647 \(found number 0.5\)/,
    );
  });
});
