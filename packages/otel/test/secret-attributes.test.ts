import { SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { type Component, createContext, defineComponent, type RouteContext } from "@routekit/core";
import { httpPlugin } from "@routekit/http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { otelPlugin } from "../src/index.js";
import { spanNamed, startTestSdk, type TestSdk } from "./support/otel-sdk.js";

/** Credentials on an exchange, in an error text and in an endpoint URI never become span data. */

const BACKEND_KEY = "sk-live/7f3a9c2e41b0";
const CLIENT_TOKEN = "ct-55b1e0aa-9d7c";
const URL_TOKEN = "ut-0d9e8f7a6b5c";
const QUERY_TOKEN = "qt-1a2b3c4d5e6f";
/** The key as a backend echoing it in JSON might write it. */
const ESCAPED_KEY = BACKEND_KEY.replace("/", "\\/").replace("l", "\\u006c");
const SECRETS = [BACKEND_KEY, ESCAPED_KEY, CLIENT_TOKEN, URL_TOKEN, QUERY_TOKEN];

let sdk: TestSdk | undefined;
let context: RouteContext | undefined;

afterEach(async () => {
  await context?.stop({ timeoutMs: 2_000 });
  await sdk?.shutdown();
  context = undefined;
  sdk = undefined;
});

const vault = defineComponent({
  scheme: "vault",
  options: {},
  createEndpoint: (address) => ({ uri: address.uri, send() {} }),
}) as unknown as Component;

/** What a span exports: its name, attributes, status and events with their attributes. */
function exported(span: ReadableSpan): unknown {
  return {
    name: span.name,
    attributes: span.attributes,
    status: span.status,
    events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
  };
}

describe("span data is redacted", () => {
  it("an error's status and exception event, and an endpoint URI's user info, hold no credential", async () => {
    sdk = startTestSdk();
    context = createContext({ logLevel: "off" });
    context.use(otelPlugin({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider }));
    // The http plugin declares its header prefixes: `http.header.key` is the header `key`.
    context.use(httpPlugin({ host: "127.0.0.1", port: 0 }));
    context.addComponent(vault);
    await context.addRoutes((r) => {
      r.from("direct:call")
        .routeId("call")
        .setHeader("http.request.header.authorization", `Bearer ${BACKEND_KEY}`)
        .to(`vault://${URL_TOKEN}@store/items`)
        .process((exchange) => {
          throw new Error(
            `backend answered {"auth":"Bearer ${ESCAPED_KEY}"} to ${String(exchange.headers["http.header.key"])} ` +
              `at https://${URL_TOKEN}@api.invalid/v1?access_token=${QUERY_TOKEN}`,
          );
        });
    });
    await context.start();
    const exchange = await context.requestExchange("direct:call", {
      body: "order",
      headers: { "http.header.key": CLIENT_TOKEN },
    });
    expect(exchange.error).toBeDefined();
    await vi.waitFor(() => expect(sdk!.spans().length).toBeGreaterThanOrEqual(2), { timeout: 5_000 });

    const spans = sdk.spans();
    for (const span of spans) {
      const text = JSON.stringify(exported(span));
      for (const secret of SECRETS) expect(text).not.toContain(secret);
    }
    const route = spanNamed(spans, "process direct:call");
    expect(route.status.code).toBe(SpanStatusCode.ERROR);
    expect(route.status.message).toBe(
      'backend answered {"auth":"[redacted]"} to [redacted] ' +
        "at https://[redacted]@api.invalid/v1?access_token=[redacted]",
    );
    const event = route.events.find((candidate) => candidate.name === "exception")!;
    expect(event.attributes?.["exception.message"]).toBe(route.status.message);
    expect(String(event.attributes?.["exception.stacktrace"])).toContain("[redacted]");
    const send = spanNamed(spans, "send vault://store/items");
    expect(send.attributes["routekit.endpoint.uri"]).toBe("vault://store/items");
  });
});
