import { afterEach, describe, expect, it } from "vitest";
import { type LoopbackServer, startLoopbackServer } from "../src/index.js";

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("the loopback server", () => {
  it("records each request whole and answers with the handler's response", async () => {
    server = await startLoopbackServer((request, response) => {
      response.writeHead(201, { "content-type": "text/plain" });
      response.end(`got ${request.body.length} bytes`);
    });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const response = await fetch(`${server.url}/orders?id=7`, { method: "POST", body: "hello" });
    expect(response.status).toBe(201);
    expect(await response.text()).toBe("got 5 bytes");
    expect(server.requests).toEqual([
      expect.objectContaining({ method: "POST", url: "/orders?id=7", httpVersion: "1.1", body: "hello" }),
    ]);
  });

  it("answers 500 with the error when its handler fails, and stops listening on close", async () => {
    server = await startLoopbackServer(() => {
      throw new Error("scripted failure");
    });
    const response = await fetch(server.url);
    expect(response.status).toBe(500);
    expect(await response.text()).toBe("loopback handler failed: Error: scripted failure");
    const { url } = server;
    await server.close();
    server = undefined;
    await expect(fetch(url)).rejects.toThrow();
  });
});
