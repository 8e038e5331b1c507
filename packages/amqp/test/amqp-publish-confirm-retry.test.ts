import { amqpPlugin } from "@routekit/amqp";
import { createContext, type RouteContext } from "@routekit/core";
import { waitFor } from "@routekit/test-support";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { BrokerInspector, brokerAvailable, closeAllConnections, uniqueName } from "./support/broker.js";

const inspector = new BrokerInspector();
const contexts: RouteContext[] = [];

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.stop({ timeoutMs: 2000 }).catch(() => {});
  if (brokerAvailable) await inspector.cleanup();
});
afterAll(() => inspector.close());

describe.skipIf(!brokerAvailable)("amqp: publishes in flight when the connection goes", () => {
  it("publishes every send again on a new channel: all resolve and every message arrives", {
    timeout: 40_000,
  }, async () => {
    const queue = uniqueName("publish-retry");
    inspector.track([queue, `${queue}.dlq`]);
    const received = new Set<number>();
    const context = createContext();
    context.use(amqpPlugin({ reconnect: { initialDelayMs: 50, maxDelayMs: 500 } }));
    contexts.push(context);
    await context.addRoutes((r) => {
      r.from(`amqp:queue:${queue}?prefetch=50`).process((exchange) => {
        received.add(exchange.body as number);
      });
    });
    await context.start();
    // The first send opens the publisher's channel and declares the queue; the next ones are
    // published on that channel at once, and they keep coming while the broker closes every
    // connection, so some wait for their confirms when the connection goes.
    await context.send(`amqp:queue:${queue}`, 0);
    const sends: Promise<unknown>[] = [];
    let closing = true;
    const closed = closeAllConnections().finally(() => {
      closing = false;
    });
    let next = 1;
    while (closing) {
      for (let index = 0; index < 10; index++) sends.push(context.send(`amqp:queue:${queue}`, next++));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await closed;
    const outcomes = await Promise.allSettled(sends);
    expect(outcomes.filter((outcome) => outcome.status === "rejected")).toEqual([]);
    await waitFor(`all ${next} messages after reconnecting`, () => received.size === next, 30_000);
    expect(Math.min(...received)).toBe(0);
    expect(Math.max(...received)).toBe(next - 1);
  });
});
