import { createContext, type Logger, type RouteContext } from "@routekit/core";
import { llm, llmPlugin, toTool } from "@routekit/llm";
import { sanitizeErrorText } from "@routekit/llm/internal";
import { type ScriptedModel, scriptedModel } from "@routekit/llm/testing";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop({ timeoutMs: 1000 });
});

class InputError extends Error {
  override readonly name = "InputError";
  readonly expose = true;
}

/** A logger that keeps every line. */
function recordingLogger(lines: string[]): Logger {
  const keep = (level: string) => (message: string) => lines.push(`${level} ${message}`);
  return {
    trace: keep("trace"),
    debug: keep("debug"),
    info: keep("info"),
    warn: keep("warn"),
    error: keep("error"),
  };
}

/** A model that calls `tool` once, then answers "done". */
function callsOnce(tool: string): ScriptedModel {
  return scriptedModel([{ toolCalls: [{ name: tool, arguments: {} }] }, { text: "done" }]);
}

/** What the model read as the tool's answer. */
function toolOutput(model: ScriptedModel): string | undefined {
  const last = model.requests[1]?.messages.at(-1);
  return last?.role === "tool" ? last.results[0]?.output : undefined;
}

const internal =
  "LlmToolsError: http_fetch: GET http://10.1.2.3:8080/admin/keys failed: connect ECONNREFUSED 10.1.2.3:8080 (reading /srv/app/secrets.json via db.internal.example:5432 and [fd00::1]:9000)";

async function run(options: {
  uriOption?: string;
  plugin?: Parameters<typeof llmPlugin>[0]["toolErrors"];
  error: Error;
}) {
  const lines: string[] = [];
  const model = callsOnce("fetch");
  context = createContext({ logger: recordingLogger(lines) });
  context.use(
    llmPlugin({
      models: { m: model },
      ...(options.plugin === undefined ? {} : { toolErrors: options.plugin }),
    }),
  );
  const completed: Array<{ isError: boolean; error?: Error }> = [];
  context.events.on("tool-call-completed", (event) => completed.push(event));
  await context.addRoutes((r) => {
    r.from("direct:llm.fetch")
      .routeId("fetch-tool")
      .asLlmTool("fetch", { description: "Fetches." })
      .process(() => {
        throw options.error;
      });
    const uri = llm("m").tools("fetch").uri();
    r.from("direct:ask")
      .routeId("ask")
      .to(options.uriOption === undefined ? uri : `${uri}&${options.uriOption}`);
  });
  await context.start();
  expect(await context.request("direct:ask", "go")).toBe("done");
  return { output: toolOutput(model), lines, completed };
}

describe("what the model reads of a failed tool call", () => {
  it("by default, internal URLs, addresses, paths and the class name are removed", async () => {
    const error = new Error(internal.slice("LlmToolsError: ".length));
    const { output } = await run({ error });
    const text = JSON.parse(output ?? "{}").error as string;
    expect(text).toBe(
      "http_fetch: GET <url> failed: connect ECONNREFUSED <address> (reading <path> via <address> and <address>)",
    );
    for (const secret of ["10.1.2.3", "8080", "/srv/app", "db.internal", "fd00", "admin"]) {
      expect(text).not.toContain(secret);
    }
  });

  it("an error that declares expose: true is shown whole: it is about the model's own input", async () => {
    const { output } = await run({ error: new InputError("key 'url' must be an absolute http(s) URL") });
    expect(JSON.parse(output ?? "{}")).toEqual({
      error: "InputError: key 'url' must be an absolute http(s) URL",
    });
  });

  it("toolErrors=message on the step shows every error whole", async () => {
    const { output } = await run({
      error: new TypeError("at http://10.1.2.3/x"),
      uriOption: "toolErrors=message",
    });
    expect(JSON.parse(output ?? "{}")).toEqual({ error: "TypeError: at http://10.1.2.3/x" });
  });

  it("a function on llmPlugin words it; the step's URI option wins over the plugin", async () => {
    const wording = (error: Error, toolName: string) => `${toolName} is unavailable (${error.name})`;
    const first = await run({ error: new RangeError("db down at 10.0.0.5"), plugin: wording });
    expect(JSON.parse(first.output ?? "{}")).toEqual({ error: "fetch is unavailable (RangeError)" });
    await context.stop();
    const second = await run({
      error: new RangeError("db down at 10.0.0.5"),
      plugin: wording,
      uriOption: "toolErrors=safe",
    });
    expect(JSON.parse(second.output ?? "{}")).toEqual({ error: "db down at <address>" });
  });

  it("the whole error reaches events and the log", async () => {
    const error = new Error("GET http://10.1.2.3:8080/admin failed");
    const { lines, completed } = await run({ error });
    expect(completed).toHaveLength(1);
    expect(completed[0]?.isError).toBe(true);
    expect(completed[0]?.error).toBe(error);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^warn Route 'ask' llm:m\?tools=fetch: tool 'fetch' \(call call_1\) failed: Error: GET http:\/\/10\.1\.2\.3:8080\/admin failed$/,
      ),
    );
  });

  it("a plain tool that throws is worded by the same policy", async () => {
    const model = callsOnce("lookup");
    context = createContext({ logLevel: "off" });
    context.use(llmPlugin({ models: { m: model } }));
    context.tools.register(
      toTool({
        name: "lookup",
        description: "Looks up.",
        execute: () => {
          throw new Error("cannot open /var/lib/app/data.db");
        },
      }),
    );
    await context.addRoutes((r) => r.from("direct:ask").to(llm("m").tools("lookup").uri()));
    await context.start();
    await context.request("direct:ask", "go");
    expect(JSON.parse(toolOutput(model) ?? "{}")).toEqual({ error: "cannot open <path>" });
  });

  it("a bad policy is refused when the plugin is made", () => {
    expect(() => llmPlugin({ models: {}, toolErrors: "verbose" as never })).toThrow(
      `llmPlugin: option 'toolErrors' expects "safe", "message" or a function (error, toolName) => string (found "verbose")`,
    );
  });

  it("sanitizeErrorText keeps ordinary words and numbers", () => {
    expect(sanitizeErrorText("expected 3 items, found 4.5 at position 12")).toBe(
      "expected 3 items, found 4.5 at position 12",
    );
    expect(sanitizeErrorText("see https://docs.example/x?y=1 and ftp://h/p")).toBe("see <url> and <url>");
    expect(sanitizeErrorText("host localhost:3000 and ::1 and ::ffff:127.0.0.1")).toContain("<address>");
  });

  it("sanitizeErrorText keeps index brackets and replaces bracketed IPv6 addresses", () => {
    expect(sanitizeErrorText("properties.items[0].parts[12] and [a] cannot be stored")).toBe(
      "properties.items[0].parts[12] and [a] cannot be stored",
    );
    expect(sanitizeErrorText("connect to [::1]:5672 and [fe80::1] failed")).toBe(
      "connect to <address> and <address> failed",
    );
  });
});

describe("a tool route whose reply cannot be written as tool output", () => {
  it("is an error result the model reads, with the error on the completed event", async () => {
    const model = callsOnce("loop");
    context = createContext({ logLevel: "error" });
    context.use(llmPlugin({ models: { m: model }, toolErrors: "message" }));
    const completed: Array<{ isError: boolean; error?: Error }> = [];
    context.events.on("tool-call-completed", (event) => completed.push(event));
    await context.addRoutes((r) => {
      r.from("direct:llm.loop")
        .asLlmTool("loop", { description: "Answers a value JSON cannot write." })
        .setBody(() => {
          const circular: Record<string, unknown> = { name: "circular" };
          circular.self = circular;
          return circular;
        });
      r.from("direct:ask").to(llm("m").tools("loop").uri());
    });
    await context.start();

    expect(await context.request("direct:ask", "go")).toBe("done");
    expect(JSON.parse(toolOutput(model) ?? "{}").error).toMatch(/^TypeError: Converting circular structure/);
    expect(completed).toHaveLength(1);
    expect(completed[0]?.isError).toBe(true);
    expect(completed[0]?.error).toBeInstanceOf(TypeError);
  });
});
