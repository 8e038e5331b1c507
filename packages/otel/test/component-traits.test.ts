import {
  type Component,
  createContext,
  defineComponent,
  type Headers,
  type RouteContext,
} from "@routekit/core";
import type { ComponentTraits, RouteProcessor } from "@routekit/core/internal";
import { afterEach, describe, expect, it, vi } from "vitest";
import { otelPlugin } from "../src/index.js";
import { parentOf, spanNamed, startTestSdk, type TestSdk } from "./support/otel-sdk.js";

// A component otel knows nothing about is traced from the traits it declares: its messaging
// system, and where its protocol headers sit (the trace context crosses in them).

let sdk: TestSdk | undefined;
let context: RouteContext | undefined;

afterEach(async () => {
  await context?.stop({ timeoutMs: 2_000 });
  await sdk?.shutdown();
  context = undefined;
  sdk = undefined;
});

/**
 * A broker in this process that behaves like a remote one: a message carries only the headers its
 * protocol sends (`sent` prefix), filed under the `received` prefix on the other side.
 */
function relayComponent(traits: ComponentTraits): Component {
  const consumers = new Map<string, RouteProcessor>();
  return defineComponent({
    scheme: "relay",
    options: {},
    traits,
    createEndpoint(address, owner) {
      return {
        uri: address.uri,
        send: (exchange) => {
          const sent = traits.headerPrefixes?.sent ?? "";
          const received = traits.headerPrefixes?.received ?? "";
          const headers: Headers = {};
          for (const [name, value] of Object.entries(exchange.headers)) {
            if (name.startsWith(sent)) headers[received + name.slice(sent.length)] = value;
          }
          const message = owner.createExchange({ body: exchange.body, headers });
          setImmediate(() => void consumers.get(address.path)?.(message));
        },
        createConsumer: (processor) => ({
          start: () => void consumers.set(address.path, processor),
          stop: () => void consumers.delete(address.path),
        }),
      };
    },
  }) as unknown as Component;
}

describe.each([
  ["headers under their own names", { inProcess: false, messagingSystem: "relaymq" }],
  [
    "headers under protocol prefixes",
    {
      inProcess: false,
      messagingSystem: "relaymq",
      headerPrefixes: { sent: "relay.out.", received: "relay.in." },
    },
  ],
] satisfies Array<[string, ComponentTraits]>)(
  "a component declaring its traits, %s",
  (_name, traits: ComponentTraits) => {
    it("gets a producer span with its messaging system, and the trace crosses to its consumer", async () => {
      sdk = startTestSdk();
      context = createContext({ logLevel: "off" });
      context.addComponent(relayComponent(traits));
      context.use(otelPlugin({ tracerProvider: sdk.tracerProvider }));
      const received: Headers[] = [];
      await context.addRoutes((r) => {
        r.from("direct:start").routeId("start").to("relay:orders");
        r.from("relay:orders")
          .routeId("worker")
          .process((exchange) => void received.push({ ...exchange.headers }));
      });
      await context.start();
      await context.send("direct:start", "order 1");
      await vi.waitFor(() => expect(sdk?.spans().map((span) => span.name)).toContain("process relay:orders"));

      const spans = sdk.spans();
      const send = spanNamed(spans, "send relay:orders");
      const consumed = spanNamed(spans, "process relay:orders");
      expect(send.attributes["messaging.system"]).toBe("relaymq");
      expect(consumed.attributes["messaging.system"]).toBe("relaymq");
      expect(consumed.spanContext().traceId).toBe(send.spanContext().traceId);
      expect(parentOf(consumed)).toBe(send.spanContext().spanId);
      const prefix = traits.headerPrefixes?.received ?? "";
      expect(received[0]?.[`${prefix}traceparent`]).toMatch(/^00-/);
    });
  },
);
