import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type Served, serve } from "../support/serve.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.context.stop({ timeoutMs: 2_000 });
  served = undefined;
});

const deep = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;

async function post(url: string, body: string) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  return { status: response.status, body: (await response.json()) as { error?: string } };
}

describe("attack: deeply nested JSON request bodies", () => {
  it("a body nested past maxJsonDepth (default 128) gets 400 before it is parsed; the route never runs", async () => {
    let runs = 0;
    served = await serve((routes) => {
      routes.from("http:/in?httpMethodRestrict=POST").process((exchange) => {
        runs++;
        exchange.body = { ok: true };
      });
    });
    // 512 KB of nesting (the default body limit is 1 MiB).
    const refused = await post(`${served.url}/in`, deep(256 * 1024));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(
      "Request body refused: JSON nested more than 128 levels deep (at character 129); the server accepts up to 128 levels (option 'maxJsonDepth')",
    );
    // Brackets inside strings (escaped quotes too) do not count.
    const inStrings = JSON.stringify({ text: `\\"${"[".repeat(1000)}`, list: deep(128) });
    expect(await post(`${served.url}/in`, inStrings)).toEqual({ status: 200, body: { ok: true } });
    expect(await post(`${served.url}/in`, deep(128))).toEqual({ status: 200, body: { ok: true } });
    expect(runs).toBe(2);
  });

  it("the limit is an option of httpPlugin", async () => {
    served = await serve(
      (routes) => {
        routes.from("http:/in?httpMethodRestrict=POST").setBody("ok");
      },
      { maxJsonDepth: 4 },
    );
    expect((await post(`${served.url}/in`, deep(5))).body.error).toMatch(
      /nested more than 4 levels deep \(at character 5\); the server accepts up to 4 levels/,
    );
    await expect(serve(() => undefined, { maxJsonDepth: 0 })).rejects.toThrow(
      /httpPlugin: option 'maxJsonDepth' expects an integer from 1 to 100000 \(found 0\)/,
    );
  });

  it("a backend's reply nested past the default depth fails the exchange, naming the limit", async () => {
    const backend = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" }).end(deep(10_000));
    });
    await new Promise<void>((resolve) => backend.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = backend.address() as AddressInfo;
      served = await serve((routes) => {
        routes.from("direct:call").to(`http://127.0.0.1:${port}/deep`);
      });
      await expect(served.context.request("direct:call", undefined)).rejects.toThrow(
        /the response is refused: JSON nested more than 128 levels deep \(at character 129\)/,
      );
    } finally {
      await new Promise((resolve) => backend.close(resolve));
    }
  });
});
