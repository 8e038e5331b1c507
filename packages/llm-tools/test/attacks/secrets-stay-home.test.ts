import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { openAiChat } from "@routekit/llm";
import { Agent, interceptors } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { httpTool, LlmToolsError, tavilySearch } from "../../src/index.js";
import { type CanaryServer, startCanaryServer } from "./support/canary-server.js";

const SECRET = "sk-Home_only/9f3A+qZ7x";
const TAVILY_KEY = "tvly-PrefixMustNotShow0123456789";

/** Every form an echoing server can send a secret back in. */
function encodings(secret: string): Record<string, string> {
  const base64 = (text: string): string => Buffer.from(text).toString("base64");
  return {
    raw: secret,
    lower: secret.toLowerCase(),
    upper: secret.toUpperCase(),
    json: JSON.stringify({ key: secret }),
    jsonSlash: JSON.stringify(secret).replaceAll("/", "\\/"),
    url: encodeURIComponent(secret),
    urlLower: encodeURIComponent(secret).toLowerCase(),
    form: new URLSearchParams({ key: secret }).toString(),
    base64: base64(secret),
    base64url: Buffer.from(secret).toString("base64url"),
    basic: `Basic ${base64(`user:${secret}`)}`,
    hex: Buffer.from(secret).toString("hex"),
  };
}

/** True when any recognisable piece of the secret is left in the text. */
function leaks(text: string, secret: string): boolean {
  const lower = text.toLowerCase();
  return (
    Object.values(encodings(secret)).some((form) => lower.includes(form.toLowerCase())) ||
    lower.includes(secret.slice(0, 8).toLowerCase())
  );
}

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

/** A loopback server whose handler sees the headers; records them per request. */
async function startHome(
  handler: Handler,
): Promise<{ server: Server; origin: string; seen: IncomingMessage["headers"][] }> {
  const seen: IncomingMessage["headers"][] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      seen.push(request.headers);
      handler(request, response, Buffer.concat(chunks).toString("utf8"));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

let canary: CanaryServer;
let home: Awaited<ReturnType<typeof startHome>>;

beforeAll(async () => {
  canary = await startCanaryServer();
  home = await startHome((request, response, body) => {
    const url = new URL(request.url ?? "/", "http://home");
    const send = (status: number, text: string, headers: Record<string, string> = {}): void => {
      response.writeHead(status, { connection: "close", ...headers });
      response.end(text);
    };
    if (url.pathname === "/away") send(302, "", { location: `http://127.0.0.1:${canary.port}/steal` });
    else if (url.pathname === "/away-by-name")
      send(307, "", { location: `http://localhost:${canary.port}/steal` });
    else if (url.pathname === "/away-https") send(301, "", { location: `https://127.0.0.1:${canary.port}/` });
    else if (url.pathname === "/here") send(302, "", { location: "/landing" });
    else if (url.pathname === "/see-other") send(303, "", { location: "/landing" });
    else if (url.pathname === "/loop") send(302, "", { location: "/loop" });
    else if (url.pathname === "/landing")
      send(
        200,
        JSON.stringify({ method: request.method, key: request.headers["x-api-key"] === SECRET, body }),
      );
    else if (url.pathname.startsWith("/echo/")) {
      const form = url.pathname.slice("/echo/".length);
      const key = String(request.headers["x-api-key"] ?? "");
      send(
        Number(url.searchParams.get("status") ?? 401),
        `denied: ${encodings(key)[form] ?? "?"} is not valid`,
      );
    } else if (url.pathname === "/boundary") {
      // The key starts 4 bytes before maxBytes (64): a cut there must not show its first bytes.
      send(200, `${"x".repeat(60)}${String(request.headers["x-api-key"])} tail`);
    } else if (url.pathname.startsWith("/tavily/")) {
      const auth = String(request.headers.authorization ?? "").replace(/^Bearer /, "");
      const form = url.pathname.split("/")[2] ?? "raw";
      // Tavily's error shape, with the key where a 512-character excerpt would cut it.
      const detail = `${"d".repeat(500)} ${encodings(auth)[form]}`;
      send(401, JSON.stringify({ detail: { error: detail } }), { "content-type": "application/json" });
    } else send(404, "no");
  });
});
afterAll(async () => {
  await canary.close();
  home.server.closeAllConnections();
  await new Promise<void>((resolve) => home.server.close(() => resolve()));
});
afterEach(() => {
  vi.unstubAllEnvs();
  home.seen.length = 0;
  canary.reset();
});

function secretTool(path: string, extra: Partial<Parameters<typeof httpTool>[0]> = {}) {
  vi.stubEnv("HOME_API_KEY", SECRET);
  return httpTool({
    name: "home",
    url: `${home.origin}${path}`,
    headers: { "X-Api-Key": "${HOME_API_KEY}" },
    ...extra,
  });
}

describe("headers filled from ${ENV} never leave their origin", () => {
  it.each([["/away"], ["/away-by-name"], ["/away-https"]])(
    "does not follow %s to another origin: the canary accepts no socket",
    async (path) => {
      const result = await secretTool(path).execute({});
      expect(result.isError).toBe(true);
      expect(result.output).toMatch(
        /^HTTP 30[127]: redirect to .* not followed: httpTool 'home' sends headers filled from the environment/,
      );
      expect(result.output).toContain(`only within ${home.origin}`);
      expect(result.metadata).toEqual({ status: Number(result.output.slice(5, 8)) });
      expect(canary.connections).toBe(0);
      expect(leaks(result.output, SECRET)).toBe(false);
    },
  );

  it("does not follow even when the tool's own dispatcher follows redirects", async () => {
    const following = new Agent().compose(interceptors.redirect({ maxRedirections: 5 }));
    const result = await secretTool("/away", { dispatcher: following }).execute({});
    expect(result.isError).toBe(true);
    expect(result.output).toContain("not followed");
    expect(canary.connections).toBe(0);
    await following.close();
  });

  it("follows redirects within the origin, keeping the header; 303 after POST continues as GET", async () => {
    const get = await secretTool("/here").execute({});
    expect(JSON.parse(get.output)).toEqual({ method: "GET", key: true, body: "" });
    const post = await secretTool("/see-other", { method: "POST" }).execute({ title: "x" });
    expect(JSON.parse(post.output)).toEqual({ method: "GET", key: true, body: "" });
    expect(home.seen.map((headers) => headers["content-type"])).toEqual([
      undefined,
      undefined,
      "application/json",
      undefined,
    ]);
  });

  it("stops a same-origin redirect loop with a clear error", async () => {
    const result = await secretTool("/loop").execute({});
    expect(result.isError).toBe(true);
    expect(result.output).toContain("not followed");
    expect(result.output).toContain("at most 5");
    expect(home.seen).toHaveLength(6);
  });

  it("a tool without secret headers still follows redirects (nothing of the caller's to protect)", async () => {
    const result = await httpTool({ name: "open", url: `${home.origin}/here` }).execute({});
    expect(JSON.parse(result.output)).toMatchObject({ method: "GET", key: false });
  });
});

describe("every output of a tool with secret headers is redacted", () => {
  it.each(Object.keys(encodings(SECRET)))("redacts the %s form from a non-2xx body", async (form) => {
    const result = await secretTool(`/echo/${form}`).execute({});
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^HTTP 401: denied: .*\[redacted\].* is not valid$/);
    expect(leaks(result.output, SECRET)).toBe(false);
  });

  it.each(["raw", "json", "base64", "basic"])("redacts the %s form from a 2xx body too", async (form) => {
    const result = await secretTool(`/echo/${form}?status=200`).execute({});
    expect(result.isError).toBe(false);
    expect(leaks(result.output, SECRET)).toBe(false);
  });

  it("never leaves the start of a secret where maxBytes cuts the body", async () => {
    const result = await secretTool("/boundary", { maxBytes: 64 }).execute({});
    expect(result.output).toBe(`${"x".repeat(60)}[red`);
    expect(result.metadata).toEqual({ status: 200, truncated: true });
    expect(leaks(result.output, SECRET)).toBe(false);
  });
});

describe("web_search and model providers redact their keys in every form", () => {
  it.each(Object.keys(encodings(TAVILY_KEY)))(
    "web_search: the %s form of the key, at the excerpt's cut, never shows",
    async (form) => {
      const error = await tavilySearch(
        { query: "q" },
        { apiKey: TAVILY_KEY, baseUrl: `${home.origin}/tavily/${form}` },
      ).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(LlmToolsError);
      const message = (error as LlmToolsError).message;
      expect(message).toContain("Tavily answered HTTP 401");
      expect(leaks(message, TAVILY_KEY)).toBe(false);
      expect(message).not.toContain("tvly-Pre");
    },
  );

  it.each(["raw", "lower", "json", "url", "base64"])(
    "openAiChat: the %s form of the key never shows",
    async (form) => {
      const echo = await startHome((request, response) => {
        const key = String(request.headers.authorization ?? "").replace(/^Bearer /, "");
        response.writeHead(401, { "content-type": "application/json", connection: "close" });
        response.end(JSON.stringify({ error: { message: `bad key ${encodings(key)[form]}` } }));
      });
      const model = openAiChat({ model: "m", baseURL: echo.origin, apiKey: SECRET, maxRetries: 0 });
      const error = await model.generate({ messages: [{ role: "user", content: "hi" }], tools: [] }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(Error);
      expect(leaks((error as Error).message, SECRET)).toBe(false);
      echo.server.closeAllConnections();
      await new Promise<void>((resolve) => echo.server.close(() => resolve()));
    },
  );
});
