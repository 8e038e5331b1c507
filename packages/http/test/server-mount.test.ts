import { createContext } from "@routekit/core";
import { describe, expect, it } from "vitest";
import { HttpError, httpPlugin, httpServerOf, mountHttpHandler } from "../src/index.js";
import { serve } from "./support/serve.js";

describe("a raw handler mounted on the http: server", () => {
  it("answers its path and the paths under it, ahead of the routes; the routes answer the rest", async () => {
    const { context, url } = await serve((r) => {
      r.from("http:/orders").setBody(() => "route");
    });
    try {
      const seen: string[] = [];
      mountHttpHandler(context, "/mcp", (request, response) => {
        seen.push(`${request.method} ${request.url}`);
        response.writeHead(200, { "content-type": "text/plain" }).end("mounted");
      });
      const text = async (path: string, init?: RequestInit) => {
        const response = await fetch(`${url}${path}`, init);
        return `${response.status} ${await response.text()}`;
      };
      expect(await text("/mcp")).toBe("200 mounted");
      expect(await text("/mcp/sessions/1?x=1", { method: "DELETE" })).toBe("200 mounted");
      expect(await text("/mcp?y=2", { method: "POST", body: "{}" })).toBe("200 mounted");
      expect(await text("/orders")).toBe("200 route");
      expect(await text("/mcpx")).toMatch(/^404 .*No route for GET \/mcpx/);
      expect(seen).toEqual(["GET /mcp", "DELETE /mcp/sessions/1?x=1", "POST /mcp?y=2"]);
    } finally {
      await context.stop();
    }
  });

  it("stops answering once unmounted", async () => {
    const { context, url } = await serve(() => undefined);
    try {
      const unmount = mountHttpHandler(context, "/raw", (_request, response) => {
        response.end("mounted");
      });
      expect((await fetch(`${url}/raw`)).status).toBe(200);
      unmount();
      const response = await fetch(`${url}/raw`);
      expect(response.status).toBe(404);
      await response.arrayBuffer();
    } finally {
      await context.stop();
    }
  });

  it("a handler that throws gets a 500 without its message, and the server goes on", async () => {
    const { context, url } = await serve(() => undefined);
    try {
      mountHttpHandler(context, "/broken", () => {
        throw new Error("secret at 10.0.0.1");
      });
      mountHttpHandler(context, "/fine", (_request, response) => {
        response.end("fine");
      });
      const broken = await fetch(`${url}/broken`);
      expect(broken.status).toBe(500);
      expect(await broken.text()).not.toContain("secret");
      expect(await (await fetch(`${url}/fine`)).text()).toBe("fine");
    } finally {
      await context.stop();
    }
  });

  it("refuses a malformed or overlapping path, a missing handler, and a context without the plugin", async () => {
    const { context } = await serve(() => undefined);
    try {
      const handler = () => undefined;
      for (const path of ["mcp", "/", "/mcp/", "/a/../b", "/{id}", "/a%2Fb", "/a?b", "/a//b"]) {
        expect(() => mountHttpHandler(context, path, handler), path).toThrow(
          expect.objectContaining({ code: "HTTP_OPTION_INVALID" }),
        );
      }
      expect(() => mountHttpHandler(context, "/mcp", "nope" as never)).toThrow(/must be a function/);
      mountHttpHandler(context, "/mcp", handler);
      for (const path of ["/mcp", "/mcp/inner"]) {
        expect(() => mountHttpHandler(context, path, handler), path).toThrow(
          expect.objectContaining({ code: "HTTP_ROUTE_CONFLICT" }),
        );
      }
      expect(() => mountHttpHandler(createContext(), "/mcp", handler)).toThrow(HttpError);
      // A path that only begins like a mounted one is not under it.
      expect(() => mountHttpHandler(context, "/mcp2", handler)).not.toThrow();
    } finally {
      await context.stop();
    }
  });

  it("the server's stop waits for a request the handler is answering", async () => {
    const context = createContext({ logLevel: "error" });
    context.use(httpPlugin());
    await context.start();
    const { url } = httpServerOf(context);
    let release: () => void = () => undefined;
    let entered: () => void = () => undefined;
    const inHandler = new Promise<void>((resolve) => {
      entered = resolve;
    });
    mountHttpHandler(context, "/slow", async (_request, response) => {
      entered();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      response.end("finished");
    });
    const inFlight = fetch(`${url}/slow`).then(
      async (response) => `${response.status} ${await response.text()}`,
    );
    await inHandler;
    const stopped = context.stop({ timeoutMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(context.state).toBe("stopping");
    release();
    expect(await inFlight).toBe("200 finished");
    await stopped;
    expect(context.state).toBe("stopped");
  });
});
