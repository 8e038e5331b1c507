import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { LlmToolsError } from "../src/errors.js";
import { type HttpToolOptions, httpTool } from "../src/http-tool/index.js";
import { type LoopbackServer, startLoopbackServer } from "./support/loopback-server.js";

const TOKEN = "${EXAMPLE_TOKEN}";
const TEAM = "${TEAM_ID}";
let server: LoopbackServer;
let base: string;

beforeAll(async () => {
  server = await startLoopbackServer((request, response) => {
    const path = request.url;
    if (path.startsWith("/echo")) {
      response.setHeader("content-type", "application/json");
      response.end(
        JSON.stringify({
          method: request.method,
          url: request.url,
          contentType: request.headers["content-type"] ?? null,
          body: request.body,
        }),
      );
    } else if (path === "/json") {
      response.end('{ "html": "<b>Tom & Jerry</b>",\n  "big": 12345678901234567890, "list": [1, 2.50] }');
    } else if (path === "/not-json") {
      response.end("plain words");
    } else if (path === "/empty") {
      response.statusCode = 204;
      response.end();
    } else if (path === "/teapot") {
      response.statusCode = 418;
      response.end('{"error":"short and stout"}');
    } else if (path === "/big") {
      response.end("b".repeat(5000));
    } else if (path === "/moved") {
      response.writeHead(301, { location: "/echo/after-redirect" });
      response.end();
    } else if (path === "/stall-body") {
      response.writeHead(200);
      response.write("partial");
    } else {
      // /stall: never answers
    }
  });
  base = server.origin;
});
afterAll(() => server.close());
afterEach(() => {
  vi.unstubAllEnvs();
  server.requests.length = 0;
});

function lastRequest() {
  const request = server.requests.at(-1);
  if (request === undefined) throw new Error("the server received no request");
  return request;
}

describe("httpTool placeholders", () => {
  const item = () => httpTool({ name: "item", url: `${base}/echo/{group}/{id}` });

  it("path-escapes values so they cannot change the URL structure", async () => {
    const result = await item().execute({ group: "a/b?c#d", id: "%2e%2e" });
    expect(result.isError, result.output).toBe(false);
    expect(lastRequest().url).toBe("/echo/a%2Fb%3Fc%23d/%252e%252e");
  });

  it("accepts numbers and booleans", async () => {
    await item().execute({ group: 7, id: true });
    expect(lastRequest().url).toBe("/echo/7/true");
  });

  it.each([
    [{ id: "1" }, "missing argument 'group' for the URL placeholder {group}"],
    [
      { group: "..", id: "1" },
      "argument 'group' fills the URL placeholder {group} and must not be empty, '.' or '..'",
    ],
    [
      { group: "", id: "1" },
      "argument 'group' fills the URL placeholder {group} and must not be empty, '.' or '..'",
    ],
    [
      { group: { a: 1 }, id: "1" },
      "argument 'group' fills the URL placeholder {group} and must be a string, number or boolean",
    ],
  ])("returns an error result for %j without sending anything", async (args, output) => {
    expect(await item().execute(args)).toEqual({ output, isError: true });
    expect(server.requests).toEqual([]);
  });

  it("returns an error result when the arguments are not an object", async () => {
    const result = await item().execute(["x"] as unknown as Record<string, unknown>);
    expect(result).toEqual({ output: "arguments must be a JSON object (found an array)", isError: true });
  });

  it("lists placeholders as required strings in the default schema, which stays open", () => {
    const tool = item();
    expect(tool.inputSchema).toEqual({
      type: "object",
      properties: {
        group: { type: "string", description: "Fills {group} in the URL." },
        id: { type: "string", description: "Fills {id} in the URL." },
      },
      required: ["group", "id"],
      additionalProperties: true,
    });
    expect(tool.description).toBe(`GET ${base}/echo/{group}/{id}`);
  });
});

describe("httpTool query and body routing", () => {
  it("sorts GET arguments into the query string after the URL's own query", async () => {
    const tool = httpTool({ name: "list", url: `${base}/echo?v=1` });
    await tool.execute({ z: "last", a: "first one", tags: ["x", "y"], skip: null, filter: { k: 1 } });
    expect(lastRequest().url).toBe("/echo?v=1&a=first+one&filter=%7B%22k%22%3A1%7D&tags=x&tags=y&z=last");
    expect(lastRequest().body).toBe("");
  });

  it("sends {} as the JSON body of a POST with no leftover arguments", async () => {
    const tool = httpTool({ name: "ping", method: "post", url: `${base}/echo` });
    const result = await tool.execute({});
    expect(JSON.parse(result.output)).toMatchObject({
      method: "POST",
      contentType: "application/json",
      body: "{}",
    });
  });

  it("sends the remaining arguments of DELETE as a body too", async () => {
    const tool = httpTool({ name: "remove", method: "DELETE", url: `${base}/echo/{id}`, query: ["force"] });
    const result = await tool.execute({ id: "9", force: true, reason: "dupe" });
    expect(JSON.parse(result.output)).toMatchObject({
      method: "DELETE",
      url: "/echo/9?force=true",
      body: '{"reason":"dupe"}',
    });
  });

  it("encodes form bodies with sorted keys and repeated array keys", async () => {
    const tool = httpTool({ name: "submit", method: "PUT", url: `${base}/echo`, body: "form" });
    const result = await tool.execute({ b: "two words", a: ["1", "2"] });
    expect(JSON.parse(result.output)).toMatchObject({
      contentType: "application/x-www-form-urlencoded",
      body: "a=1&a=2&b=two+words",
    });
  });

  it("sends the one remaining string argument as is with body: raw", async () => {
    const tool = httpTool({ name: "upload", method: "POST", url: `${base}/echo/{name}`, body: "raw" });
    const result = await tool.execute({ name: "notes.txt", content: "line 1\nline 2 & more" });
    expect(JSON.parse(result.output)).toMatchObject({
      url: "/echo/notes.txt",
      contentType: "text/plain; charset=utf-8",
      body: "line 1\nline 2 & more",
    });
  });

  it("refuses raw bodies that are not exactly one string argument", async () => {
    const tool = httpTool({ name: "upload", method: "POST", url: `${base}/echo`, body: "raw" });
    expect(await tool.execute({ a: "x", b: "y" })).toEqual({
      output: "body 'raw' sends exactly one argument as the body, found 2 (a, b)",
      isError: true,
    });
    expect(await tool.execute({ a: 1 })).toEqual({
      output: "body 'raw' sends argument 'a' as is, so it must be a string",
      isError: true,
    });
    expect(server.requests).toEqual([]);
  });

  it("lets a configured content-type header win over the body mode's", async () => {
    const tool = httpTool({
      name: "graph",
      method: "POST",
      url: `${base}/echo`,
      headers: { "Content-Type": "application/vnd.api+json" },
    });
    const result = await tool.execute({ a: 1 });
    expect(JSON.parse(result.output)).toMatchObject({
      contentType: "application/vnd.api+json",
      body: '{"a":1}',
    });
  });
});

describe("httpTool results", () => {
  it("re-encodes JSON Go-style, keeping key order and number text", async () => {
    const tool = httpTool({ name: "data", url: `${base}/json`, resultMode: "json" });
    const result = await tool.execute({});
    expect(result.output).toBe(
      String.raw`{"html":"\u003cb\u003eTom \u0026 Jerry\u003c/b\u003e","big":12345678901234567890,"list":[1,2.50]}`,
    );
  });

  it("makes a body that is not JSON an error result in json mode, and an empty body null", async () => {
    const notJson = await httpTool({ name: "words", url: `${base}/not-json`, resultMode: "json" }).execute(
      {},
    );
    expect(notJson.isError).toBe(true);
    expect(notJson.output).toMatch(/^response is not valid JSON \(.+\): plain words$/);
    expect(notJson.metadata).toEqual({ status: 200 });
    const empty = await httpTool({ name: "nothing", url: `${base}/empty`, resultMode: "json" }).execute({});
    expect(empty).toEqual({ output: "null", isError: false, metadata: { status: 204 } });
  });

  it("prefixes the status and a line break in status+text mode", async () => {
    const result = await httpTool({
      name: "words",
      url: `${base}/not-json`,
      resultMode: "status+text",
    }).execute({});
    expect(result).toEqual({ output: "200\nplain words", isError: false, metadata: { status: 200 } });
  });

  it("lets the HTTP failure shape win over json mode", async () => {
    const result = await httpTool({ name: "teapot", url: `${base}/teapot`, resultMode: "json" }).execute({});
    expect(result).toEqual({
      output: 'HTTP 418: {"error":"short and stout"}',
      isError: true,
      metadata: { status: 418 },
    });
  });

  it("cuts the body at maxBytes and says so in the metadata", async () => {
    const result = await httpTool({ name: "big", url: `${base}/big`, maxBytes: 100 }).execute({});
    expect(result).toEqual({
      output: "b".repeat(100),
      isError: false,
      metadata: { status: 200, truncated: true },
    });
  });

  it("follows redirects", async () => {
    const result = await httpTool({ name: "moved", url: `${base}/moved` }).execute({});
    expect(JSON.parse(result.output)).toMatchObject({ url: "/echo/after-redirect" });
  });
});

describe("httpTool failures are results, never exceptions", () => {
  it("reports a refused connection", async () => {
    const closed = await startLoopbackServer();
    await closed.close();
    const result = await httpTool({ name: "gone", url: `${closed.origin}/x` }).execute({});
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(new RegExp(`^GET ${closed.origin}/x failed: .*ECONNREFUSED`));
    expect(result.metadata).toBeUndefined();
  });

  it("reports a deadline exceeded while the body streams, with the status that arrived", async () => {
    const result = await httpTool({ name: "trickle", url: `${base}/stall-body`, timeoutMs: 200 }).execute({});
    expect(result).toEqual({
      output: `deadline exceeded: GET ${base}/stall-body did not complete within 200 ms`,
      isError: true,
      metadata: { status: 200 },
    });
  });

  it("reports a caller's abort", async () => {
    const controller = new AbortController();
    const pending = httpTool({ name: "stall", url: `${base}/stall` }).execute(
      {},
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(new Error("shutting down")), 50);
    expect(await pending).toEqual({
      output: `GET ${base}/stall aborted by the caller: shutting down`,
      isError: true,
    });
    const early = await httpTool({ name: "stall", url: `${base}/stall` }).execute(
      {},
      { signal: AbortSignal.abort() },
    );
    expect(early).toEqual({ output: `GET ${base}/stall was not sent: the call was aborted`, isError: true });
  });

  it("refuses a bad call-time timeout", async () => {
    const result = await httpTool({ name: "stall", url: `${base}/stall` }).execute({}, { timeoutMs: -5 });
    expect(result).toEqual({
      output: "context.timeoutMs must be a positive number of milliseconds (found number -5)",
      isError: true,
    });
  });
});

describe("httpTool secrets in headers", () => {
  const options: HttpToolOptions = {
    name: "private_api",
    method: "POST",
    url: `http://127.0.0.1:1/unused`,
    headers: { Authorization: `Bearer ${TOKEN}`, "X-Team": `${TEAM}-fixed` },
  };

  it("expands environment variables at call time, not at creation", async () => {
    const tool = httpTool({ ...options, url: `${base}/echo` });
    vi.stubEnv("EXAMPLE_TOKEN", "first-key");
    vi.stubEnv("TEAM_ID", "t1");
    await tool.execute({});
    expect(lastRequest().headers.authorization).toBe("Bearer first-key");
    expect(lastRequest().headers["x-team"]).toBe("t1-fixed");
    vi.stubEnv("EXAMPLE_TOKEN", "rotated-key");
    await tool.execute({});
    expect(lastRequest().headers.authorization).toBe("Bearer rotated-key");
  });

  it("names the header and variable when a variable is not set", async () => {
    vi.stubEnv("EXAMPLE_TOKEN", "test-key");
    vi.stubEnv("TEAM_ID", undefined);
    const result = await httpTool({ ...options, url: `${base}/echo` }).execute({});
    expect(result).toEqual({
      output: `header 'X-Team' uses ${TEAM}, but the environment variable TEAM_ID is not set`,
      isError: true,
    });
    expect(server.requests).toEqual([]);
  });

  it("never serialises or shows an expanded value", async () => {
    vi.stubEnv("EXAMPLE_TOKEN", "test-key");
    vi.stubEnv("TEAM_ID", "t1");
    const tool = httpTool({ ...options, url: `${base}/echo` });
    await tool.execute({});
    for (const shown of [
      JSON.stringify(tool),
      inspect(tool, { depth: 10 }),
      String(tool.original && inspect(tool.original)),
    ]) {
      expect(shown).toContain(TOKEN);
      expect(shown).not.toContain("test-key");
    }
    expect(tool.toJSON()).toMatchObject({ headers: { Authorization: `Bearer ${TOKEN}` } });
  });

  it("masks a secret wherever it would appear in an error output", async () => {
    const closed = await startLoopbackServer();
    await closed.close();
    vi.stubEnv("EXAMPLE_TOKEN", "ECONNREFUSED");
    vi.stubEnv("TEAM_ID", "t1");
    const result = await httpTool({ ...options, url: `${closed.origin}/x` }).execute({});
    expect(result.isError).toBe(true);
    expect(result.output).not.toContain("ECONNREFUSED");
    expect(result.output).toContain("[redacted]");
  });
});

describe("httpTool options are checked at creation", () => {
  const valid: HttpToolOptions = { name: "ok", url: "https://api.example.com/items/{id}" };

  it.each([
    [{ name: "bad name!" }, "httpTool: option 'name' must be a tool name matching ^[a-zA-Z0-9_-]{1,64}$"],
    [
      { method: "FETCH" },
      `option 'method' must be one of "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS" (found string "FETCH")`,
    ],
    [{ url: "/relative/{id}" }, "option 'url' is not an absolute URL"],
    [{ url: "ftp://files.example.com/{id}" }, "option 'url' has scheme 'ftp:' (expected http or https)"],
    [{ url: "https://{tenant}.example.com/x" }, "option 'url' has a placeholder in its scheme or host"],
    [{ url: "https://api.example.com/{a b}" }, "option 'url' has an invalid placeholder {a b}"],
    [{ url: "https://api.example.com/{id" }, "option 'url' has an unbalanced '{' or '}'"],
    [{ url: "https://api.example.com/x#part" }, "option 'url' has a fragment"],
    [{ url: 42 }, "option 'url' must be an absolute http or https URL (found number 42)"],
    [
      { resultMode: "xml" },
      `option 'resultMode' must be one of "text", "json", "status+text" (found string "xml")`,
    ],
    [{ body: "multipart" }, `option 'body' must be one of "json", "form", "raw"`],
    [{ timeoutMs: 0 }, "option 'timeoutMs' must be a whole number of milliseconds >= 1 (found number 0)"],
    [{ maxBytes: -1 }, "option 'maxBytes' must be a whole number of bytes >= 1"],
    [{ query: "q" }, "option 'query' must be an array of argument names"],
    [{ query: ["id"] }, "option 'query' must be names that are not URL placeholders"],
    [{ headers: { "Bad Header": "x" } }, "option 'headers['Bad Header']' must be a valid header name"],
    [{ headers: { Accept: 1 } }, "option 'headers['Accept']' must be a string without line breaks"],
    [
      { headers: { Accept: "a\r\nInjected: 1" } },
      "option 'headers['Accept']' must be a string without line breaks",
    ],
    [
      { inputSchema: { type: "array" } },
      `option 'inputSchema' must be a JSON Schema object with type "object"`,
    ],
    [{ description: 5 }, "option 'description' must be a string"],
    [{ dispatcher: {} }, "option 'dispatcher' must be an undici Dispatcher"],
    [
      { resultmode: "json" },
      "unknown option 'resultmode' (did you mean 'resultMode'?) (expected one of name, description, method",
    ],
  ])("refuses %j", (override, message) => {
    const create = () => httpTool({ ...valid, ...override } as HttpToolOptions);
    expect(create).toThrow(LlmToolsError);
    expect(create).toThrow(message);
    try {
      create();
    } catch (error) {
      expect((error as LlmToolsError).code).toBe("TOOL_OPTION_INVALID");
    }
  });

  it("keeps a given input schema as it is", () => {
    const inputSchema = { type: "object", properties: { id: { type: "integer" } } };
    expect(httpTool({ ...valid, inputSchema }).inputSchema).toBe(inputSchema);
  });
});
