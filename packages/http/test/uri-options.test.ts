import { createContext, EndpointOptionError, type RouteContext } from "@routekit/core";
import { describe, expect, it } from "vitest";
import { HttpError, httpPlugin } from "../src/index.js";

function contextWithPlugin(): RouteContext {
  const context = createContext({ logLevel: "error" });
  context.use(httpPlugin());
  return context;
}

describe("http: and https: URI options", () => {
  it("names an unknown option and the nearest valid one", async () => {
    const context = contextWithPlugin();
    const adding = context.addRoutes((r) => {
      r.from("direct:a").to("https://api.example.com/x?httpMetod=POST");
    });
    await expect(adding).rejects.toThrow(EndpointOptionError);
    await expect(adding).rejects.toThrow(
      "Endpoint 'https://api.example.com/x?httpMetod=POST': unknown option 'httpMetod' (did you mean httpMethod?)",
    );
  });

  it("names a bad value and what the option expects", async () => {
    const context = contextWithPlugin();
    await expect(
      context.addRoutes((r) => {
        r.from("direct:a").to("https://api.example.com/x?httpMethod=FETCH");
      }),
    ).rejects.toThrow("option 'httpMethod' expects one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    await expect(
      context.addRoutes((r) => {
        r.from("direct:b").to("https://api.example.com/x?okStatusCodeRange=200-99");
      }),
    ).rejects.toThrow(
      "option 'okStatusCodeRange' expects a range like 200-299 within 100-599 (found '200-99')",
    );
    await expect(
      context.addRoutes((r) => {
        r.from("http:/x?httpMethodRestrict=POST,FETCH").setBody(() => 1);
      }),
    ).rejects.toThrow(
      "Endpoint 'http:/x?httpMethodRestrict=POST,FETCH': option 'httpMethodRestrict' expects methods among GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS (found 'FETCH')",
    );
  });

  it("keeps server and client options apart", async () => {
    const context = contextWithPlugin();
    await expect(
      context.addRoutes((r) => {
        r.from("http:/x?timeout=5").setBody(() => 1);
      }),
    ).rejects.toThrow(
      "Endpoint 'http:/x?timeout=5': option 'timeout' is a client option; a server path like 'http:/orders' takes only httpMethodRestrict",
    );
    await expect(
      context.addRoutes((r) => {
        r.from("direct:c").to("http://127.0.0.1/x?httpMethodRestrict=GET");
      }),
    ).rejects.toThrow(
      "option 'httpMethodRestrict' belongs to server paths like 'http:/orders', not to a client URL (use httpMethod)",
    );
  });

  it("refuses malformed paths and URLs", async () => {
    const context = contextWithPlugin();
    await expect(
      context.addRoutes((r) => {
        r.from("http:orders").setBody(() => 1);
      }),
    ).rejects.toThrow(
      "Endpoint 'http:orders': the server path must start with '/', e.g. 'http:/orders' (found 'orders')",
    );
    await expect(
      context.addRoutes((r) => {
        r.from("http:/orders/{id").setBody(() => 1);
      }),
    ).rejects.toThrow("path segment '{id' is not a template like '{id}'");
    await expect(
      context.addRoutes((r) => {
        r.from("direct:d").to("https:/api");
      }),
    ).rejects.toThrow(HttpError);
    await expect(
      context.addRoutes((r) => {
        r.from("direct:e").to("https://api.example.com/x#part");
      }),
    ).rejects.toThrow("expected 'https://host[:port]/path' with endpoint options as the query");
    await expect(
      context.addRoutes((r) => {
        r.from("https://api.example.com/x").setBody(() => 1);
      }),
    ).rejects.toThrow("cannot be consumed from (it is producer-only)");
  });

  it("refuses to send to a server path", async () => {
    const context = contextWithPlugin();
    await context.addRoutes((r) => {
      r.from("http:/ask").setBody(() => "answer");
    });
    await context.start();
    try {
      await expect(context.request("http:/ask", "q")).rejects.toThrow(
        "Endpoint 'http:/ask' is a server path (routes consume from it); to call a server use a URL like 'http://host:port/path'",
      );
    } finally {
      await context.stop();
    }
  });

  it("needs the plugin: without it the scheme is unknown", async () => {
    const context = createContext({ logLevel: "error" });
    await expect(
      context.addRoutes((r) => {
        r.from("http:/x").setBody(() => 1);
      }),
    ).rejects.toThrow("no component for scheme 'http'");
  });
});
