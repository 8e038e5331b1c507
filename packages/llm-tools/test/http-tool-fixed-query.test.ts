// The query parameters an httpTool's URL fixes cannot be overridden by a model's arguments.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { httpTool } from "../src/http-tool/index.js";
import { type LoopbackServer, startLoopbackServer } from "./support/loopback-server.js";

let server: LoopbackServer;

beforeAll(async () => {
  server = await startLoopbackServer((request, response) => {
    response.end(request.url);
  });
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

describe("httpTool fixed query parameters", () => {
  it("refuses an argument named like a fixed parameter, in any case, and sends nothing", async () => {
    const tool = httpTool({ name: "search", url: `${server.origin}/search?format=json&limit=10` });
    for (const args of [{ format: "xml" }, { LIMIT: 1000 }, { q: "a", Format: ["x", "y"] }]) {
      const result = await tool.execute(args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(result.output).toMatch(/would override the query parameter the tool's URL fixes/);
    }
    expect(server.requests).toEqual([]);
  });

  it("refuses it on a POST whose 'query' names it, and keeps other arguments working", async () => {
    const tool = httpTool({
      name: "create",
      method: "POST",
      url: `${server.origin}/items?api_version=2`,
      query: ["api_version", "dry_run"],
    });
    const refused = await tool.execute({ api_version: "1", title: "x" });
    expect(refused.isError).toBe(true);
    expect(server.requests).toEqual([]);
    const sent = await tool.execute({ dry_run: true, title: "x" });
    expect(sent.isError).toBe(false);
    expect(sent.output).toBe("/items?api_version=2&dry_run=true");
  });

  it("keeps placeholders in the query and free arguments as before", async () => {
    const tool = httpTool({ name: "find", url: `${server.origin}/find?q={q}&v=1` });
    const result = await tool.execute({ q: "a&v=2", page: 3 });
    expect(result.output).toBe("/find?q=a%26v%3D2&v=1&page=3");
  });
});
