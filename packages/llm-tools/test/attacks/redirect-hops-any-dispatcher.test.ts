// hostAllowlist holds on every redirect hop whatever dispatcher http_fetch is given: one that
// follows redirects itself (undici's redirect interceptor) or one that follows none. Made-up names
// resolve to 127.0.0.1 through a table lookup: nothing is dialled but loopback.
import { Agent, type Dispatcher, interceptors } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { fetchText, LlmToolsError } from "../../src/index.js";
import { type LoopbackServer, startLoopbackServer } from "../support/loopback-server.js";
import { tableLookup } from "./support/loopback-dialer.js";

let server: LoopbackServer;
const agents: Dispatcher[] = [];
const lookup = tableLookup({ "allowed.test": ["127.0.0.1"], "other.test": ["127.0.0.1"] });

beforeAll(async () => {
  server = await startLoopbackServer((request, response) => {
    const target = new URL(request.url, "http://x").searchParams.get("to");
    if (target !== null) {
      response.writeHead(302, { location: target });
      response.end();
      return;
    }
    response.end(`landed ${request.url}`);
  });
});
afterAll(async () => {
  await Promise.all(agents.map((agent) => agent.close()));
  await server.close();
});
afterEach(() => {
  server.requests.length = 0;
});

function followingAgent(): Dispatcher {
  const agent = new Agent({ connect: { lookup } }).compose(interceptors.redirect({ maxRedirections: 5 }));
  agents.push(agent);
  return agent;
}

function plainAgent(): Dispatcher {
  const agent = new Agent({ connect: { lookup } });
  agents.push(agent);
  return agent;
}

const start = (to: string) => `http://allowed.test:${server.port}/start?to=${encodeURIComponent(to)}`;

async function failure(promise: Promise<unknown>): Promise<LlmToolsError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LlmToolsError);
  return error as LlmToolsError;
}

describe("http_fetch with a dispatcher of the caller's", () => {
  for (const [kind, make] of [
    ["that follows redirects itself", followingAgent],
    ["that follows none", plainAgent],
  ] as const) {
    it(`refuses a redirect to a host outside hostAllowlist, with a dispatcher ${kind}`, async () => {
      const options = { dispatcher: make(), hostAllowlist: ["allowed.test"] };
      const error = await failure(fetchText(start(`http://other.test:${server.port}/landing`), options));
      expect(error.code).toBe("TOOL_GUARD_REFUSED");
      expect(error.message).toContain("refused redirect to http://other.test");
      expect(error.message).toContain("is not in hostAllowlist [allowed.test]");
      expect(server.requests.map((request) => request.url)).toEqual([
        `/start?to=${encodeURIComponent(`http://other.test:${server.port}/landing`)}`,
      ]);
    });

    it(`follows a redirect within hostAllowlist, with a dispatcher ${kind}`, async () => {
      const options = { dispatcher: make(), hostAllowlist: ["allowed.test"] };
      const result = await fetchText(start(`http://allowed.test:${server.port}/landing`), options);
      expect(result.text).toBe("landed /landing");
      expect(result.url).toBe(`http://allowed.test:${server.port}/landing`);
    });
  }

  it("checks every hop of a chain, not only the first and the last", async () => {
    const last = `http://allowed.test:${server.port}/landing`;
    const middle = `http://other.test:${server.port}/hop?to=${encodeURIComponent(last)}`;
    const options = { dispatcher: followingAgent(), hostAllowlist: ["allowed.test"] };
    const error = await failure(fetchText(start(middle), options));
    expect(error.code).toBe("TOOL_GUARD_REFUSED");
    expect(server.requests).toHaveLength(1);
  });

  it("keeps maxRedirects with a dispatcher of the caller's", async () => {
    const options = { dispatcher: followingAgent(), maxRedirects: 0 };
    const error = await failure(fetchText(start(`http://allowed.test:${server.port}/landing`), options));
    expect(error.code).toBe("TOOL_LIMIT_EXCEEDED");
    expect(server.requests).toHaveLength(1);
  });
});
