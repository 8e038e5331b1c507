import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { HTTP_HEADERS } from "../src/index.js";
import { type Served, serve } from "./support/serve.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.context.stop({ timeoutMs: 2_000 });
  served = undefined;
});

/** Sends a chunked body (no content-length) with node:http and resolves with status and body. */
function sendChunked(url: string, chunks: Buffer[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${url}/upload`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
    });
    request.on("response", (response) => {
      const parts: Buffer[] = [];
      response.on("data", (chunk: Buffer) => parts.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(parts).toString("utf8") }),
      );
    });
    // The server may close the connection while we still write: that is expected after a 413.
    request.on("error", (error) => {
      if (!("code" in error) || (error.code !== "EPIPE" && error.code !== "ECONNRESET")) reject(error);
    });
    const writeNext = (index: number): void => {
      const chunk = chunks[index];
      if (chunk === undefined) {
        request.end();
        return;
      }
      if (request.destroyed) return;
      request.write(chunk, () => setTimeout(() => writeNext(index + 1), 5));
    };
    writeNext(0);
  });
}

describe("http server request and reply bodies", () => {
  it("parses JSON requests and serialises object replies as application/json", async () => {
    served = await serve((r) => {
      r.from("http:/echo?httpMethodRestrict=POST").process((exchange) => {
        exchange.body = { received: exchange.body, type: typeof exchange.body };
      });
    });
    const response = await fetch(`${served.url}/echo`, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ items: [1, 2], name: "ü" }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.json()).toEqual({ received: { items: [1, 2], name: "ü" }, type: "object" });
  });

  it("reads other bodies as text (octet-stream as bytes) and replies text/plain or octet-stream", async () => {
    served = await serve((r) => {
      r.from("http:/text").process((exchange) => {
        exchange.body = `${typeof exchange.body}:${String(exchange.body)}`;
      });
      r.from("http:/bytes").process((exchange) => {
        const body = exchange.body as Buffer;
        exchange.body = Uint8Array.from(body.reverse());
      });
    });
    const text = await fetch(`${served.url}/text`, { method: "POST", body: "{not json}" });
    expect(text.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await text.text()).toBe("string:{not json}");
    const bytes = await fetch(`${served.url}/bytes`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: new Uint8Array([1, 2, 255]),
    });
    expect(bytes.headers.get("content-type")).toBe("application/octet-stream");
    expect([...new Uint8Array(await bytes.arrayBuffer())]).toEqual([255, 2, 1]);
  });

  it("takes the status from http.status and reply headers from http.response.header.*; no body gives 204", async () => {
    served = await serve((r) => {
      r.from("http:/made?httpMethodRestrict=POST")
        .setHeader(HTTP_HEADERS.status, () => 201)
        .setHeader("http.response.header.Location", () => "/made/1")
        .setHeader("http.response.header.content-type", () => "application/vnd.made+json")
        .setHeader("internal", () => "never sent")
        .setBody(() => ({ id: 1 }));
      r.from("http:/empty").setBody(() => undefined);
    });
    const made = await fetch(`${served.url}/made`, { method: "POST" });
    expect(made.status).toBe(201);
    expect(made.headers.get("location")).toBe("/made/1");
    expect(made.headers.get("content-type")).toBe("application/vnd.made+json");
    expect(made.headers.get("internal")).toBeNull();
    expect(await made.json()).toEqual({ id: 1 });
    const empty = await fetch(`${served.url}/empty`);
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe("");
  });

  it("answers 400 with a JSON error to bad JSON, and the route never runs", async () => {
    let runs = 0;
    served = await serve((r) => {
      r.from("http:/echo").process(() => {
        runs++;
      });
    });
    const response = await fetch(`${served.url}/echo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":',
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string };
    expect(body.error).toMatch(/^Request body is not valid JSON: /);
    expect(runs).toBe(0);
  });

  it("answers 413 to a declared body over the limit, before reading it", async () => {
    let runs = 0;
    served = await serve(
      (r) => {
        r.from("http:/upload").process(() => {
          runs++;
        });
      },
      { maxBodyBytes: 1_000 },
    );
    const response = await fetch(`${served.url}/upload`, { method: "POST", body: "x".repeat(1_001) });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "Request body exceeds the limit of 1000 bytes" });
    const atLimit = await fetch(`${served.url}/upload`, { method: "POST", body: "x".repeat(1_000) });
    // The route leaves the body as it came: InOut replies the body after the route.
    expect(atLimit.status).toBe(200);
    expect((await atLimit.text()).length).toBe(1_000);
    expect(runs).toBe(1);
  });

  it("answers 413 to a chunked body once it passes the limit, without reading the rest", async () => {
    let runs = 0;
    served = await serve(
      (r) => {
        r.from("http:/upload").process(() => {
          runs++;
        });
      },
      { maxBodyBytes: 4_096 },
    );
    const chunks = Array.from({ length: 40 }, () => Buffer.alloc(1_024, 97));
    const reply = await sendChunked(served.url, chunks);
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body)).toEqual({ error: "Request body exceeds the limit of 4096 bytes" });
    expect(runs).toBe(0);
  });

  it("answers 500 naming the problem when the reply cannot be sent (errorDetail message)", async () => {
    served = await serve(
      (r) => {
        r.from("http:/bad-status")
          .setHeader(HTTP_HEADERS.status, () => 99)
          .setBody(() => "x");
        r.from("http:/bad-header")
          .setHeader("http.response.header.x-list", () => [1, 2])
          .setBody(() => "x");
        r.from("http:/bad-body").setBody(() => ({ big: 1n }));
      },
      { errorDetail: "message" },
    );
    const status = await fetch(`${served.url}/bad-status`);
    expect(status.status).toBe(500);
    expect(((await status.json()) as { error: string }).error).toBe(
      "Header 'http.status' must be an HTTP status 100-599 (found 99)",
    );
    const header = await fetch(`${served.url}/bad-header`);
    expect(((await header.json()) as { error: string }).error).toBe(
      "Header 'http.response.header.x-list' must be a valid header name with a string, number or string[] value (found an array with a non-string item)",
    );
    const body = await fetch(`${served.url}/bad-body`);
    expect(((await body.json()) as { error: string }).error).toMatch(
      /^The reply body could not be serialised as JSON: .*BigInt/,
    );
  });
});
