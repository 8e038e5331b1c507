import type { LookupFunction } from "node:net";
import { Agent } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  fetchText,
  HTTP_FETCH_INPUT_SCHEMA,
  type HttpFetchOptions,
  resolveHttpFetchOptions,
  runHttpFetch,
} from "../src/http-fetch/index.js";
import { toolErrorOf } from "./support/failures.js";
import { type LoopbackServer, startLoopbackServer } from "./support/loopback-server.js";

let server: LoopbackServer;
const local: HttpFetchOptions = { allowPrivateNetwork: true };

beforeAll(async () => {
  server = await startLoopbackServer((request, response) => {
    const path = request.url;
    if (path === "/text") {
      response.setHeader("content-type", "text/plain; charset=utf-8");
      response.end("hello");
    } else if (path === "/big") {
      response.end("a".repeat(10_000));
    } else if (path === "/utf8") {
      response.end("é".repeat(10));
    } else if (path === "/missing") {
      response.statusCode = 404;
      response.end("no such thing");
    } else if (path === "/broken") {
      response.statusCode = 500;
      response.end(`trace ${"x".repeat(1000)}`);
    } else if (path === "/stall") {
      // never answers
    } else if (path === "/stall-body") {
      response.writeHead(200);
      response.write("partial");
    } else if (path.startsWith("/hop/")) {
      const hop = Number(path.slice("/hop/".length));
      response.writeHead(302, { location: hop >= 3 ? "/final" : `/hop/${hop + 1}` });
      response.end();
    } else if (path === "/final") {
      response.end("landed");
    } else {
      response.statusCode = 418;
      response.end(`unexpected ${path}`);
    }
  });
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

describe("fetchText", () => {
  it("GETs the URL and returns its text, status, size and content type", async () => {
    const result = await fetchText(`${server.origin}/text`, local);
    expect(result).toEqual({
      url: `${server.origin}/text`,
      status: 200,
      text: "hello",
      bytes: 5,
      truncated: false,
      contentType: "text/plain; charset=utf-8",
    });
    expect(server.requests[0]?.method).toBe("GET");
  });

  it("truncates at maxBytes and marks the result", async () => {
    const options: HttpFetchOptions = { allowPrivateNetwork: true, maxBytes: 1000 };
    const cut = await fetchText(`${server.origin}/big`, options);
    expect(cut).toMatchObject({ text: "a".repeat(1000), bytes: 1000, truncated: true });
    const whole = await fetchText(`${server.origin}/big`, { allowPrivateNetwork: true, maxBytes: 10_000 });
    expect(whole).toMatchObject({ bytes: 10_000, truncated: false });
  });

  it("never cuts a UTF-8 character in half", async () => {
    const result = await fetchText(`${server.origin}/utf8`, { allowPrivateNetwork: true, maxBytes: 5 });
    expect(result.text).toBe("éé");
    expect(result.truncated).toBe(true);
  });

  it("fails on non-2xx naming the status and a short piece of the body", async () => {
    const missing = await toolErrorOf(fetchText(`${server.origin}/missing`, local));
    expect(missing.code).toBe("TOOL_FAILED");
    expect(missing.message).toBe(`http_fetch: GET ${server.origin}/missing returned HTTP 404: no such thing`);
    const broken = await toolErrorOf(fetchText(`${server.origin}/broken`, local));
    expect(broken.message).toContain("returned HTTP 500: trace xxx");
    expect(broken.message.length).toBeLessThan(300);
    expect(broken.message.endsWith("…")).toBe(true);
  });

  it("stops at the deadline when the server never answers", async () => {
    const error = await toolErrorOf(
      fetchText(`${server.origin}/stall`, { allowPrivateNetwork: true, timeoutMs: 200 }),
    );
    expect(error.code).toBe("TOOL_TIMEOUT");
    expect(error.message).toBe(`http_fetch: GET ${server.origin}/stall timed out after 200 ms`);
  });

  it("stops at the deadline when the body stalls half-way", async () => {
    const error = await toolErrorOf(
      fetchText(`${server.origin}/stall-body`, { allowPrivateNetwork: true, timeoutMs: 200 }),
    );
    expect(error.code).toBe("TOOL_TIMEOUT");
  });

  it("rejects with the caller's reason when the caller aborts", async () => {
    const controller = new AbortController();
    const reason = new Error("exchange stopped");
    const pending = fetchText(`${server.origin}/stall`, local, controller.signal);
    setTimeout(() => controller.abort(reason), 50);
    await expect(pending).rejects.toBe(reason);
    await expect(fetchText(`${server.origin}/text`, local, AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  it("follows redirects up to maxRedirects and reports the final URL", async () => {
    const result = await fetchText(`${server.origin}/hop/1`, local);
    expect(result).toMatchObject({ url: `${server.origin}/final`, text: "landed" });
    expect(server.requests.map((request) => request.url)).toEqual(["/hop/1", "/hop/2", "/hop/3", "/final"]);
  });

  it("fails when the redirect limit is reached", async () => {
    const limited = await toolErrorOf(
      fetchText(`${server.origin}/hop/1`, { allowPrivateNetwork: true, maxRedirects: 1 }),
    );
    expect(limited.code).toBe("TOOL_LIMIT_EXCEEDED");
    expect(limited.message).toContain("redirect limit was reached (maxRedirects: 1)");
    server.requests.length = 0;
    const disabled = await toolErrorOf(
      fetchText(`${server.origin}/hop/3`, { allowPrivateNetwork: true, maxRedirects: 0 }),
    );
    expect(disabled.message).toBe(
      `http_fetch: ${server.origin}/hop/3 answered HTTP 302 (redirect to /final) and the redirect limit was ` +
        "reached (maxRedirects: 0)",
    );
    expect(server.requests).toHaveLength(1);
  });

  it("matches the host allowlist exactly and case-insensitively", async () => {
    // Every name resolves to 127.0.0.1, so even a broken allowlist could only reach this machine.
    const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
      if (lookupOptions.all === true) callback(null, [{ address: "127.0.0.1", family: 4 }]);
      else callback(null, "127.0.0.1", 4);
    };
    const options: HttpFetchOptions = { allowPrivateNetwork: true, hostAllowlist: ["LocalHost"], lookup };
    const result = await fetchText(`http://LOCALHOST:${server.port}/text`, options);
    expect(result.text).toBe("hello");
    for (const host of ["127.0.0.1", "localhost.example", "sub.localhost"]) {
      const error = await toolErrorOf(fetchText(`http://${host}:${server.port}/text`, options));
      expect(error.code).toBe("TOOL_GUARD_REFUSED");
      expect(error.message).toContain(`host '${host}' is not in hostAllowlist [localhost]`);
    }
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ["/relative/path", 'found the string "/relative/path"'],
    ["ftp://example.com/file", "found scheme 'ftp:'"],
    ["javascript:alert(1)", "found scheme 'javascript:'"],
    ["file:///etc/passwd", "found scheme 'file:'"],
    ["", 'found the string ""'],
    ["not a url", 'found the string "not a url"'],
  ])("refuses the URL %j", async (url, found) => {
    const error = await toolErrorOf(fetchText(url, local));
    expect(error.code).toBe("TOOL_INPUT_INVALID");
    expect(error.message).toBe(`http_fetch: key 'url' must be an absolute http or https URL (${found})`);
  });

  it("never shows credentials from the URL in messages", async () => {
    const error = await toolErrorOf(fetchText(`http://user:s3cret@127.0.0.1:${server.port}/missing`, local));
    expect(error.message).not.toContain("s3cret");
    expect(error.message).toContain(`GET ${server.origin}/missing returned HTTP 404`);
  });

  it("sends through an injected dispatcher", async () => {
    const agent = new Agent();
    try {
      const result = await fetchText(`${server.origin}/text`, { dispatcher: agent });
      expect(result.text).toBe("hello");
    } finally {
      await agent.close();
    }
  });
});

describe("http_fetch options", () => {
  it.each([
    [{ maxBytes: -1 }, "option 'maxBytes' must be a whole number >= 1 (found number -1)"],
    [{ maxBytes: 0 }, "option 'maxBytes' must be a whole number >= 1 (found number 0)"],
    [{ maxBytes: 1.5 }, "option 'maxBytes' must be a whole number >= 1 (found number 1.5)"],
    [{ timeoutMs: "1000" }, "option 'timeoutMs' must be a whole number >= 1 (found string \"1000\")"],
    [{ maxRedirects: -1 }, "option 'maxRedirects' must be a whole number >= 0 (found number -1)"],
    [
      { allowPrivateNetwork: "yes" },
      "option 'allowPrivateNetwork' must be true or false (found string \"yes\")",
    ],
    [{ hostAllowlist: "api.example.com" }, "option 'hostAllowlist' must be an array of host names"],
    [{ hostAllowlist: [""] }, "option hostAllowlist[0] must be a non-empty host name"],
    [{ hostAllowlist: ["https://api.example.com"] }, "option hostAllowlist[0] must be a bare host name"],
    [
      { hostAllowlist: ["ok.example.com", "api.example.com:8443"] },
      "option hostAllowlist[1] must be a bare host name",
    ],
    [{ hostAllowlist: ["*.example.com"] }, "no scheme, port, path or wildcard; found '*.example.com'"],
    [
      { maxByte: 10 },
      "unknown option 'maxByte' (did you mean 'maxBytes'?) (expected one of hostAllowlist, maxBytes,",
    ],
    [{ dispatcher: {} }, "option 'dispatcher' must be an undici Dispatcher"],
    [{ lookup: "dns" }, "option 'lookup' must be a dns.lookup-compatible function"],
    [
      { dispatcher: new Agent(), allowPrivateNetwork: true },
      "option 'allowPrivateNetwork' configures the built-in guarded dispatcher and has no effect with option 'dispatcher'",
    ],
  ])("refuses %j with a message naming the option", async (options, message) => {
    const error = await toolErrorOf(fetchText(`${server.origin}/text`, options as HttpFetchOptions));
    expect(error.code).toBe("TOOL_OPTION_INVALID");
    expect(error.message).toContain(message);
    expect(error.message.startsWith("http_fetch: ")).toBe(true);
    expect(server.requests).toEqual([]);
  });

  it("builds one dispatcher per options object", () => {
    const options: HttpFetchOptions = { hostAllowlist: ["api.example.com"] };
    const first = resolveHttpFetchOptions(options);
    expect(resolveHttpFetchOptions(options).dispatcher).toBe(first.dispatcher);
    expect(resolveHttpFetchOptions({ ...options }).dispatcher).not.toBe(first.dispatcher);
    expect(first).toMatchObject({ maxBytes: 1024 * 1024, timeoutMs: 15_000, maxRedirects: 5 });
  });
});

describe("runHttpFetch", () => {
  const headersOf = (status: number, bytes: number, truncated: boolean) => ({
    "llm.http_fetch.status": status,
    "llm.http_fetch.bytes": bytes,
    "llm.http_fetch.truncated": truncated,
  });

  it("reads {url} as an object, as JSON text, as bytes, or a plain URL string", async () => {
    const url = `${server.origin}/text`;
    for (const body of [
      { url },
      JSON.stringify({ url }),
      new TextEncoder().encode(JSON.stringify({ url })),
      url,
      ` ${url}\n`,
    ]) {
      expect(await runHttpFetch(body, local)).toEqual({ text: "hello", headers: headersOf(200, 5, false) });
    }
  });

  it("sets the truncated header when the body was cut", async () => {
    const result = await runHttpFetch(
      { url: `${server.origin}/big` },
      { allowPrivateNetwork: true, maxBytes: 100 },
    );
    expect(result.headers).toEqual(headersOf(200, 100, true));
  });

  it.each([
    [undefined, "http_fetch: input is empty (expected a JSON object)"],
    ["", "http_fetch: input is empty (expected a JSON object)"],
    ["fetch example.com please", "http_fetch: input is not valid JSON"],
    ["[1,2]", "http_fetch: input is not a JSON object (found an array)"],
    [{}, "http_fetch: required key 'url' is missing"],
    [{ url: 42 }, "http_fetch: key 'url' must be a string (found number 42)"],
    [
      { url: "ftp://example.com" },
      "http_fetch: key 'url' must be an absolute http or https URL (found scheme 'ftp:')",
    ],
  ])("refuses the input %j", async (body, message) => {
    const error = await toolErrorOf(runHttpFetch(body, local));
    expect(error.code).toBe("TOOL_INPUT_INVALID");
    expect(error.message).toContain(message);
  });

  it("exports the input schema", () => {
    expect(HTTP_FETCH_INPUT_SCHEMA).toEqual({
      type: "object",
      properties: { url: { type: "string", description: expect.any(String) } },
      required: ["url"],
      additionalProperties: false,
    });
  });
});
