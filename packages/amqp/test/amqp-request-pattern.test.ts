import { AmqpError, amqpPlugin } from "@routekit/amqp";
import { createContext, type RouteContext } from "@routekit/core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { BrokerInspector, brokerAvailable, uniqueName } from "./support/broker.js";

const inspector = new BrokerInspector();
const contexts: RouteContext[] = [];

function newContext(): RouteContext {
  const context = createContext();
  context.use(amqpPlugin({ reconnect: { initialDelayMs: 50, maxDelayMs: 500 } }));
  contexts.push(context);
  return context;
}

function amqpErrorIn(error: unknown): AmqpError | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current instanceof AmqpError) return current;
  }
  return undefined;
}

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.stop({ timeoutMs: 2000 }).catch(() => {});
  if (brokerAvailable) await inspector.cleanup();
});
afterAll(() => inspector.close());

describe.skipIf(!brokerAvailable)("amqp: an amqp: step in a route called with context.request()", () => {
  it("waits for a reply (InOut, as in Camel) and, when none comes, says how to publish without waiting", async () => {
    const queue = uniqueName("no-replier");
    inspector.track([queue]);
    const context = newContext();
    await context.addRoutes((r) => {
      r.from("direct:ask").routeId("ask").to(`amqp:queue:${queue}?requestTimeout=300`);
      r.from("direct:tell").routeId("tell").to(`amqp:queue:${queue}?exchangePattern=InOnly`);
    });
    await context.start();

    const error = await context.request("direct:ask", "anyone?").catch((caught: unknown) => caught);
    const timeout = amqpErrorIn(error);
    expect(timeout?.code).toBe("REQUEST_TIMEOUT");
    expect(timeout?.message).toContain(`No reply from queue '${queue}' within 300 ms`);
    expect(timeout?.message).toMatch(/the exchange is InOut \(e\.g\. from context\.request\(\)\)/);
    expect(timeout?.message).toContain(`'amqp:queue:${queue}?requestTimeout=300&exchangePattern=InOnly'`);

    // With the advice followed, the request publishes and returns at once with its own body.
    expect(await context.request("direct:tell", "just publish")).toBe("just publish");
    const published = await inspector.drain(queue);
    expect(published.map((message) => String(message.content))).toContain("just publish");
  });

  it("names exchangePattern=InOut when the endpoint forces the request", async () => {
    const queue = uniqueName("forced-request");
    inspector.track([queue]);
    const context = newContext();
    await context.start();

    const error = await context
      .send(`amqp:queue:${queue}?exchangePattern=InOut&requestTimeout=300`, "ping")
      .catch((caught: unknown) => caught);

    expect(amqpErrorIn(error)?.code).toBe("REQUEST_TIMEOUT");
    expect(String((error as Error).message)).toMatch(/the endpoint sets exchangePattern=InOut/);
    expect(String((error as Error).message)).toContain(
      `'amqp:queue:${queue}?requestTimeout=300&exchangePattern=InOnly'`,
    );
  });
});
