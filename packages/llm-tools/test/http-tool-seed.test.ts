/**
 * The three example programs of toolnexus §7 ("httpTool — a REST endpoint as a tool"), ported:
 * each runs against a loopback stub whose handler sees the request head and body, and asserts
 * exactly what the seed asserts.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { httpTool } from "../src/http-tool/index.js";
import { type LoopbackServer, type RecordedRequest, startLoopbackServer } from "./support/loopback-server.js";

/** The seed's `serve`: `handle(head, body)` returns (status, body); answers with connection: close. */
async function serve(
  handle: (head: string, body: string) => [number, string] | Promise<[number, string]>,
): Promise<LoopbackServer> {
  return startLoopbackServer(async (request, response) => {
    const [status, out] = await handle(requestHead(request), request.body);
    response.writeHead(status, "X", { "content-length": Buffer.byteLength(out), connection: "close" });
    response.end(out);
  });
}

function requestHead(request: RecordedRequest): string {
  const lines = [`${request.method} ${request.url} HTTP/${request.httpVersion}`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${String(value)}`);
  return lines.join("\r\n");
}

const servers: LoopbackServer[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe("toolnexus §7 examples", () => {
  it("1. a GET with a path placeholder", async () => {
    // Echo the request line back: we want to see the URL the tool built.
    const server = await serve((head) => [200, head.split("\r\n")[0] ?? ""]);
    servers.push(server);
    const repo = httpTool({
      name: "repo_info",
      description: "Fetch a repository's metadata",
      url: `${server.origin}/repos/{owner}/{repo}`,
      inputSchema: {
        type: "object",
        properties: { owner: { type: "string" }, repo: { type: "string" }, ref: { type: "string" } },
        required: ["owner", "repo"],
      },
    });
    expect(repo.source).toBe("http");
    // Placeholders are filled (path-escaped) and removed; on GET the rest is the query string.
    const r = await repo.execute({ owner: "muthu ishere", repo: "toolnexus", ref: "main" });
    expect(r.isError, r.output).toBe(false);
    expect(r.output).toBe("GET /repos/muthu%20ishere/toolnexus?ref=main HTTP/1.1");
    expect(r.metadata?.status).toBe(200);
  });

  it("2. a POST with a JSON body and an env-backed header", async () => {
    // Echo the body back, and whether the Authorization header carried the expanded token.
    const server = await serve((head, body) => {
      const authed = head.toLowerCase().includes("authorization: bearer test-key");
      return [authed ? 201 : 401, body];
    });
    servers.push(server);
    vi.stubEnv("EXAMPLE_TOKEN", "test-key");
    const create = httpTool({
      name: "create_issue",
      description: "Open an issue",
      method: "POST",
      url: `${server.origin}/issues`,
      headers: { Authorization: "Bearer ${EXAMPLE_TOKEN}" },
      inputSchema: {
        type: "object",
        properties: { title: { type: "string" }, labels: { type: "array", items: { type: "string" } } },
        required: ["title"],
      },
    });
    const r = await create.execute({ title: "Docs drift", labels: ["docs"] });
    expect(r.isError, r.output).toBe(false);
    // Every non-placeholder arg became the JSON body.
    expect(JSON.parse(r.output)).toEqual({ title: "Docs drift", labels: ["docs"] });
    expect(r.metadata?.status, "the header was expanded").toBe(201);
  });

  it("3. the full surface: query routing, form bodies, result modes and failures", async () => {
    const server = await serve(async (head, body) => {
      const path = head.split(" ")[1] ?? "";
      if (path.startsWith("/search")) return [200, `{"path":"${path}","body":${JSON.stringify(body)}}`];
      if (path === "/form") return [200, body];
      if (path === "/missing") return [404, "no such thing"];
      // /slow
      await new Promise((resolve) => setTimeout(resolve, 300));
      return [200, "eventually"];
    });
    servers.push(server);
    const base = server.origin;

    // `query` names ride in the querystring even on a POST; the rest is the JSON body.
    const search = httpTool({
      name: "search",
      method: "POST",
      url: `${base}/search`,
      query: ["q", "page"],
      resultMode: "json",
    });
    const r = await search.execute({ q: "adapters", page: 2, filter: "docs" });
    // resultMode "json" re-encodes the body the way every port does (Go-style: `&` -> `\u0026`).
    expect(r.output, r.output).toContain(String.raw`/search?page=2\u0026q=adapters`);
    const echoed = JSON.parse(r.output) as { path: string; body: string };
    expect(echoed.path).toBe("/search?page=2&q=adapters");
    expect(echoed.body, "the leftover arg is the body").toBe('{"filter":"docs"}');

    // body: "form" urlencodes the leftover args instead of sending JSON.
    const form = httpTool({ name: "submit", method: "POST", url: `${base}/form`, body: "form" });
    const f = await form.execute({ name: "muthu" });
    expect(f.output).toBe("name=muthu");

    // A non-2xx is an error RESULT the model can read; the failure shape wins over resultMode.
    const missing = httpTool({ name: "missing", url: `${base}/missing`, resultMode: "status+text" });
    const m = await missing.execute({});
    expect(m.isError && m.output === "HTTP 404: no such thing").toBe(true);
    expect(m.metadata?.status).toBe(404);

    // timeoutMs is milliseconds; a call context's timeoutMs overrides it.
    const slow = httpTool({ name: "slow", url: `${base}/slow`, timeoutMs: 50 });
    const s1 = await slow.execute({});
    expect(s1.isError && s1.output.includes("deadline exceeded"), s1.output).toBe(true);
    const s2 = await slow.execute({}, { timeoutMs: 5000 });
    expect(!s2.isError && s2.output === "eventually", s2.output).toBe(true);
  });
});
