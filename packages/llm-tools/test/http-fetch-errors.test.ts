import { createContext, type RouteContext, RouteStepError } from "@routekit/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HttpFetchError, runHttpFetch } from "../src/index.js";
import { type LoopbackServer, startLoopbackServer } from "./support/loopback-server.js";

let server: LoopbackServer;
let context: RouteContext | undefined;
/** Answers of /flaky before it succeeds: each request takes the next. */
let flakyAnswers: number[] = [];

beforeAll(async () => {
  server = await startLoopbackServer((request, response) => {
    const path = request.url.split("?")[0];
    if (path === "/unavailable") {
      response.statusCode = 503;
      response.end("down for maintenance");
    } else if (path === "/missing") {
      response.statusCode = 404;
      response.end("no such item");
    } else if (path === "/busy") {
      response.statusCode = 429;
      response.setHeader("retry-after", "1");
      response.end("slow down");
    } else if (path === "/reset") {
      response.socket?.resetAndDestroy();
    } else if (path === "/stall") {
      // never answers: only the fetch's deadline ends it
    } else if (path === "/redirect") {
      response.statusCode = 302;
      response.setHeader("location", "/next?token=t-777777&page=3");
      response.end();
    } else if (path === "/flaky") {
      const status = flakyAnswers.shift() ?? 200;
      response.statusCode = status;
      response.end(status === 200 ? "finally" : `attempt failed with ${status}`);
    } else {
      response.end("ok");
    }
  });
});
afterAll(() => server.close());
afterEach(async () => {
  await context?.stop();
  context = undefined;
  server.requests.length = 0;
  flakyAnswers = [];
});

const local = { allowPrivateNetwork: true };

async function fetchFailure(url: string, options: object = local): Promise<HttpFetchError> {
  const outcome = await runHttpFetch({ url }, options).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(outcome instanceof HttpFetchError))
    throw new Error(`expected an HttpFetchError, got ${String(outcome)}`);
  return outcome;
}

describe("HttpFetchError fields", () => {
  it.each([
    ["/unavailable", 503, true],
    ["/busy", 429, true],
    ["/missing", 404, false],
  ])("GET %s carries status %i and retryable %s", async (path, status, retryable) => {
    const error = await fetchFailure(`${server.origin}${path}`);
    expect(error).toMatchObject({
      code: "TOOL_FAILED",
      toolName: "http_fetch",
      name: "HttpFetchError",
      status,
      retryable,
      url: `${server.origin}${path}`,
    });
    expect(error.message).toContain(`returned HTTP ${status}`);
  });

  it("shows a URL without user info, fragment or secret query values, in the field and the message", async () => {
    const url = new URL(`${server.origin}/missing`);
    url.username = "alice";
    url.password = "hunter2-password";
    url.search = "?page=2&api_key=k-123456&access_token=t-654321&X-Amz-Signature=s-abcdef&q=cats";
    url.hash = "#id_token=fragment-secret";
    const error = await fetchFailure(url.href);
    const expected =
      `${server.origin}/missing?page=2&api_key=[redacted]&access_token=[redacted]` +
      "&X-Amz-Signature=[redacted]&q=cats";
    expect(error.url).toBe(expected);
    expect(error.message).toBe(`http_fetch: GET ${expected} returned HTTP 404: no such item`);
    for (const secret of ["alice", "hunter2", "k-123456", "t-654321", "s-abcdef", "fragment-secret"]) {
      expect(`${error.url} ${error.message}`).not.toContain(secret);
    }
    // the server did get the real request
    expect(server.requests[0]?.url).toBe(
      "/missing?page=2&api_key=k-123456&access_token=t-654321&X-Amz-Signature=s-abcdef&q=cats",
    );
  });

  it("a redirect past maxRedirects shows its location without secrets", async () => {
    const error = await fetchFailure(`${server.origin}/redirect`, {
      ...local,
      maxRedirects: 0,
    });
    expect(error).toMatchObject({ code: "TOOL_LIMIT_EXCEEDED", status: 302, retryable: false });
    expect(error.message).toContain("(redirect to /next?token=[redacted]&page=3)");
    expect(error.message).not.toContain("t-777777");
  });

  it("a timeout has no status and is retryable", async () => {
    const error = await fetchFailure(`${server.origin}/stall`, { ...local, timeoutMs: 100 });
    expect(error).toMatchObject({ code: "TOOL_TIMEOUT", status: undefined, retryable: true });
    expect(error.url).toBe(`${server.origin}/stall`);
  });

  it("a connection reset has no status and is retryable", async () => {
    const error = await fetchFailure(`${server.origin}/reset`);
    expect(error).toMatchObject({ code: "TOOL_FAILED", status: undefined, retryable: true });
    expect(error.message).toMatch(/^http_fetch: GET http:\/\/127\.0\.0\.1:\d+\/reset failed: /);
  });

  it("a refused connection has no status and is not retryable", async () => {
    const closed = await startLoopbackServer();
    await closed.close();
    const error = await fetchFailure(`${closed.origin}/`);
    expect(error).toMatchObject({ code: "TOOL_FAILED", status: undefined, retryable: false });
    expect(error.message).toContain("ECONNREFUSED");
  });

  it("guard refusals are HttpFetchErrors that are not retryable and not shown to a model as is", async () => {
    const byAllowlist = await fetchFailure(`${server.origin}/?token=abc123`, {
      ...local,
      hostAllowlist: ["api.example.com"],
    });
    expect(byAllowlist).toMatchObject({
      code: "TOOL_GUARD_REFUSED",
      status: undefined,
      retryable: false,
      url: `${server.origin}/?token=[redacted]`,
      expose: false,
    });
    const byAddress = await fetchFailure(`${server.origin}/`, {});
    expect(byAddress).toMatchObject({ code: "TOOL_GUARD_REFUSED", status: undefined, retryable: false });
    expect(byAddress.message).toContain("loopback");
    expect(server.requests).toEqual([]);
  });
});

describe("route expressions read the fields", () => {
  it('redelivers while "${exception.status} >= 500", then succeeds', async () => {
    flakyAnswers = [503, 502];
    context = createContext();
    await context.addRoutes((routes) => {
      routes
        .from("direct:fetch")
        .onException(HttpFetchError, {
          retryWhile: "${exception.status} >= 500",
          maximumRedeliveries: 5,
          redeliveryDelay: 10,
        })
        .httpFetch(local);
    });
    await context.start();
    expect(await context.request("direct:fetch", `${server.origin}/flaky`)).toBe("finally");
    expect(server.requests).toHaveLength(3);
  });

  it("does not redeliver a 404, and the clause step reads status, retryable and url", async () => {
    context = createContext();
    await context.addRoutes((routes) => {
      routes
        .from("direct:fetch")
        .onException(HttpFetchError, {
          retryWhile: "${exception.status} >= 500",
          maximumRedeliveries: 5,
          redeliveryDelay: 10,
          handled: true,
          step: (step) => step.setBody("${exception.status} ${exception.retryable} ${exception.url}"),
        })
        .httpFetch(local);
    });
    await context.start();
    expect(await context.request("direct:fetch", `${server.origin}/missing?key=k-1`)).toBe(
      `404 false ${server.origin}/missing?key=[redacted]`,
    );
    expect(server.requests).toHaveLength(1);
  });

  it("gives up after maximumRedeliveries on a persistent 503, with the error's fields intact", async () => {
    context = createContext();
    await context.addRoutes((routes) => {
      routes
        .from("direct:fetch")
        .onException(HttpFetchError, {
          retryWhile: "${exception.retryable}",
          maximumRedeliveries: 2,
          redeliveryDelay: 10,
        })
        .httpFetch(local);
    });
    await context.start();
    const failure = await context.request("direct:fetch", `${server.origin}/unavailable`).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RouteStepError);
    const cause = (failure as RouteStepError).cause;
    expect(cause).toBeInstanceOf(HttpFetchError);
    expect(cause).toMatchObject({ status: 503, retryable: true });
    expect(server.requests).toHaveLength(3);
  });
});
