import { amqpPlugin, amqpProperty } from "@routekit/amqp";
import { createContext, type RouteContext } from "@routekit/core";
import { waitFor } from "@routekit/test-support";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { BrokerInspector, brokerAvailable, uniqueName } from "./support/broker.js";

// Every send carries a message id of its own (the key an idempotent consumer can use), also
// across contexts; a consumer sees it in its exchange properties beside the other delivery facts.

const inspector = new BrokerInspector();
const contexts: RouteContext[] = [];

function newContext(): RouteContext {
  const context = createContext({ logLevel: "off" });
  context.use(amqpPlugin());
  contexts.push(context);
  return context;
}

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.stop({ timeoutMs: 2000 }).catch(() => {});
  if (brokerAvailable) await inspector.cleanup();
});
afterAll(() => inspector.close());

describe.skipIf(!brokerAvailable)("amqp: message ids", () => {
  it("gives every send its own message id, also from two contexts", async () => {
    const queue = uniqueName("message-ids");
    inspector.track([queue, `${queue}.dlq`]);
    const seen: Array<Record<string, unknown>> = [];
    const consumer = newContext();
    await consumer.addRoutes((r) => {
      r.from(`amqp:queue:${queue}`).process((exchange) => {
        seen.push({ ...exchange.properties });
      });
    });
    await consumer.start();
    const first = newContext();
    const second = newContext();
    await first.start();
    await second.start();

    for (let n = 0; n < 5; n++) {
      await first.send(`amqp:queue:${queue}`, { n });
      await second.send(`amqp:queue:${queue}`, { n });
    }
    await waitFor("10 deliveries", () => seen.length === 10);

    const ids = seen.map((properties) => properties[amqpProperty.messageId]);
    for (const id of ids) expect(typeof id).toBe("string");
    expect(new Set(ids).size).toBe(10);
    expect(seen[0]).toMatchObject({
      [amqpProperty.queue]: queue,
      [amqpProperty.exchange]: "",
      [amqpProperty.routingKey]: queue,
      [amqpProperty.redelivered]: false,
      [amqpProperty.redeliveries]: 0,
    });
  });
});
