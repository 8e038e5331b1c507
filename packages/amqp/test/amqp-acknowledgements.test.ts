import { amqpPlugin } from "@routekit/amqp";
import { createContext, type RouteContext } from "@routekit/core";
import { waitFor } from "@routekit/test-support";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { BrokerInspector, brokerAvailable, uniqueName } from "./support/broker.js";

// Acknowledgements go out in batches (one `multiple` ack for a run of finished deliveries); these
// tests show a batch never waits for a slower message and never covers one that is still running
// or that failed.

const inspector = new BrokerInspector();
const contexts: RouteContext[] = [];

function newContext(): RouteContext {
  const context = createContext();
  context.use(amqpPlugin());
  contexts.push(context);
  return context;
}

function queueName(label: string): string {
  const name = uniqueName(label);
  inspector.track([name, `${name}.dlq`]);
  return name;
}

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.stop({ timeoutMs: 2000 }).catch(() => {});
  if (brokerAvailable) await inspector.cleanup();
});
afterAll(() => inspector.close());

describe.skipIf(!brokerAvailable)("amqp: acknowledgements", () => {
  it("acknowledges the messages after a slow one at once: with prefetch 2 the others all pass it", async () => {
    const queue = queueName("acks-slow");
    const handled: number[] = [];
    let releaseSlow: () => void = () => {};
    const slow = new Promise<void>((resolve) => {
      releaseSlow = resolve;
    });
    const context = newContext();
    await context.addRoutes((r) => {
      r.from(`amqp:queue:${queue}?prefetch=2`).process(async (exchange) => {
        const { n } = exchange.body as { n: number };
        if (n === 0) await slow;
        handled.push(n);
      });
    });
    await context.start();
    for (let n = 0; n < 10; n++) await context.send(`amqp:queue:${queue}`, { n });
    // Only two deliveries are unacknowledged at a time: the nine fast ones get through only if
    // each one's ack went out while message 0 was still running.
    await waitFor("the nine fast messages", () => handled.length === 9, 15_000);
    expect(handled).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    releaseSlow();
    await waitFor("the slow message", () => handled.length === 10, 15_000);
    await context.stop();
    // Nothing was handed back: every message was acknowledged exactly once.
    expect(await inspector.messageCount(queue)).toBe(0);
    expect(handled.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("rejects a failed message on its own while the ones around it are acknowledged", async () => {
    const queue = queueName("acks-failed");
    const attempts = new Map<number, number>();
    const context = newContext();
    await context.addRoutes((r) => {
      r.from(`amqp:queue:${queue}?prefetch=20&maxRedeliveries=0&deadLetter=false`).process((exchange) => {
        const { n } = exchange.body as { n: number };
        attempts.set(n, (attempts.get(n) ?? 0) + 1);
        if (n % 7 === 3) throw new Error(`message ${n} is refused`);
      });
    });
    await context.start();
    await Promise.all(Array.from({ length: 40 }, (_, n) => context.send(`amqp:queue:${queue}`, { n })));
    await waitFor("all 40 messages", () => attempts.size === 40, 15_000);
    await context.stop();
    // Each message ran once: no ack covered a rejected one (the broker would have closed the
    // channel and delivered the rest again), and the rejected ones were dropped, not requeued.
    expect([...attempts.values()].every((count) => count === 1)).toBe(true);
    expect(await inspector.messageCount(queue)).toBe(0);
  });
});
