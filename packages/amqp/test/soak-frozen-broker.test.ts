import { amqpPlugin, amqpProperty } from "@routekit/amqp";
import { createContext, type RouteContext } from "@routekit/core";
import { STOP_GRACE_MS } from "@routekit/core/internal";
import { LoopbackProxy, settlesWithin, waitFor } from "@routekit/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { BrokerInspector, brokerAvailable, brokerUrl, uniqueName } from "./support/broker.js";

// A broker connection that goes dead mid-stream (a loopback proxy that stops forwarding):
// stop() still returns within its timeout plus the documented grace, and every message the
// stopped consumer had not acknowledged is delivered again to the next consumer.

const inspector = new BrokerInspector();
const contexts: RouteContext[] = [];
const cleanups: Array<() => void | Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  for (const context of contexts.splice(0)) await context.stop({ timeoutMs: 1000 }).catch(() => {});
  if (brokerAvailable) await inspector.cleanup();
});

function range(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index);
}

describe.skipIf(!brokerAvailable)("amqp: stopping on a frozen broker connection", () => {
  it("stops within timeoutMs plus the grace, and the broker redelivers every unacknowledged message", {
    timeout: 60_000,
  }, async () => {
    const queue = uniqueName("frozen");
    inspector.track([queue, `${queue}.dlq`]);
    const broker = new URL(brokerUrl);
    const proxy = await LoopbackProxy.start({ host: broker.hostname, port: Number(broker.port || 5672) });
    cleanups.push(() => proxy.close());
    // Work that ignores the abort signal: it ends only when the test lets it.
    let releaseWork: () => void = () => {};
    const workReleased = new Promise<void>((resolve) => {
      releaseWork = resolve;
    });
    cleanups.push(() => releaseWork());

    const started: number[] = [];
    const first = createContext({ logLevel: "off" });
    contexts.push(first);
    const viaProxy = new URL(brokerUrl);
    viaProxy.hostname = "127.0.0.1";
    viaProxy.port = String(proxy.port);
    viaProxy.searchParams.set("heartbeat", "2");
    first.use(amqpPlugin({ url: viaProxy.toString(), reconnect: { initialDelayMs: 50, maxDelayMs: 200 } }));
    await first.addRoutes((r) => {
      r.from(`amqp:queue:${queue}?prefetch=5`)
        .routeId("stuck-consumer")
        .process(async (exchange) => {
          started.push((exchange.body as { n: number }).n);
          await workReleased;
        });
    });
    await first.start();
    const channel = await inspector.channel();
    for (const n of range(20)) {
      channel.sendToQueue(queue, Buffer.from(JSON.stringify({ n })), { contentType: "application/json" });
    }
    await waitFor("five deliveries in progress (prefetch 5)", () => started.length === 5);

    proxy.freeze();
    const timeoutMs = 1000;
    const stopping = first.stop({ timeoutMs });
    const outcome = await settlesWithin(stopping, timeoutMs + STOP_GRACE_MS + 1000);
    expect(outcome).toBe("settled");
    const stopError = await stopping.then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(stopError?.message).toMatch(/route 'stuck-consumer' \(5 in flight\)/);

    // The next consumer, straight to the broker, receives all 20: the 5 unacknowledged ones again.
    const received = new Map<number, boolean>();
    const second = createContext({ logLevel: "off" });
    contexts.push(second);
    second.use(amqpPlugin({ url: brokerUrl }));
    await second.addRoutes((r) => {
      r.from(`amqp:queue:${queue}?prefetch=50`)
        .routeId("next-consumer")
        .process((exchange) => {
          received.set(
            (exchange.body as { n: number }).n,
            exchange.properties[amqpProperty.redelivered] === true,
          );
        });
    });
    await second.start();
    await waitFor("all 20 messages at the next consumer", () => received.size === 20, 30_000);
    expect([...received.keys()].sort((a, b) => a - b)).toEqual(range(20));
    const redelivered = [...received.entries()].filter(([, again]) => again).map(([n]) => n);
    expect(redelivered.sort((a, b) => a - b)).toEqual([...started].sort((a, b) => a - b));
  });
});
