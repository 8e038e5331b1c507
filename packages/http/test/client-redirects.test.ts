// The http: client never follows a redirect, whatever dispatcher httpPlugin is given.
import { createContext, type RouteContext } from "@routekit/core";
import { Agent, type Dispatcher, interceptors } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { HttpError, HttpOperationFailedError, httpPlugin } from "../src/index.js";
import { type LoopbackServer, startLoopbackServer } from "./support/loopback-server.js";

let remote: LoopbackServer | undefined;
let context: RouteContext | undefined;
const agents: Agent[] = [];
afterEach(async () => {
  await context?.stop({ timeoutMs: 2_000 });
  await remote?.close();
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
  context = undefined;
  remote = undefined;
});

async function redirectingServer(): Promise<LoopbackServer> {
  return startLoopbackServer((request, response) => {
    if (request.url === "/start") {
      response.writeHead(302, { location: "/internal-only" });
      response.end();
    } else response.end("followed");
  });
}

async function started(dispatcher: Dispatcher): Promise<RouteContext> {
  context = createContext({ logLevel: "error" });
  context.use(httpPlugin({ dispatcher }));
  await context.start();
  return context;
}

describe("http client redirects", () => {
  it("hands back a 3xx even through a dispatcher with undici's redirect interceptor", async () => {
    remote = await redirectingServer();
    const agent = new Agent();
    agents.push(agent);
    const running = await started(agent.compose(interceptors.redirect({ maxRedirections: 5 })));
    const exchange = await running.requestExchange(`${remote.url}/start`, undefined);
    expect(exchange.error).toBeInstanceOf(HttpOperationFailedError);
    expect((exchange.error as HttpOperationFailedError).status).toBe(302);
    expect((exchange.error as HttpOperationFailedError).redirectLocation).toBe("/internal-only");
    expect(remote.seen.map((request) => request.url)).toEqual(["/start"]);
  });

  it("refuses the reply of a dispatcher that followed a redirect on its own", async () => {
    remote = await redirectingServer();
    const agent = new Agent();
    agents.push(agent);
    // A redirect interceptor that ignores maxRedirections, as a hand-written one might.
    const stubborn: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (options, handler) => {
      const { maxRedirections: _ignored, ...rest } = options as typeof options & { maxRedirections?: number };
      return interceptors.redirect({ maxRedirections: 5 })(dispatch)(rest, handler);
    };
    const running = await started(agent.compose(stubborn));
    const exchange = await running.requestExchange(`${remote.url}/start`, undefined);
    expect(exchange.error).toBeInstanceOf(HttpError);
    expect(exchange.error?.message).toContain("followed 1 redirect(s) on its own");
    expect(exchange.body).not.toBe("followed");
  });
});
