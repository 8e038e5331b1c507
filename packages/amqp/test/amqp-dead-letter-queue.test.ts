import { AmqpError, amqpHeader, amqpPlugin } from "@routekit/amqp";
import { createContext, type Headers, type RouteContext, RoutekitError } from "@routekit/core";
import { waitFor } from "@routekit/test-support";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { BrokerInspector, brokerAvailable, uniqueName } from "./support/broker.js";

const inspector = new BrokerInspector();
const contexts: RouteContext[] = [];
const temporary = "autoDelete=true&durable=false";

function newContext(): RouteContext {
  const context = createContext();
  context.use(amqpPlugin({ reconnect: { initialDelayMs: 50, maxDelayMs: 500 } }));
  contexts.push(context);
  return context;
}

/** A queue name for one test; it, its dead-letter queue and a dead-letter queue's own are deleted after it. */
function queueName(label: string): string {
  const name = uniqueName(label);
  inspector.track([name, `${name}.dlq`, `${name}.dlq.dlq`]);
  return name;
}

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.stop({ timeoutMs: 2000 }).catch(() => {});
  if (brokerAvailable) await inspector.cleanup();
});
afterAll(() => inspector.close());

describe.skipIf(!brokerAvailable)("amqp: dead-letter queues", () => {
  it("a consumer of an autoDelete queue leaves no queue behind, its dead-letter queue included", async () => {
    const queue = queueName("temporary");
    const seen: unknown[] = [];
    const context = newContext();
    await context.addRoutes((r) => {
      r.from(`amqp:queue:${queue}?${temporary}`).process((exchange) => {
        seen.push(exchange.body);
      });
    });
    await context.start();
    expect(await inspector.queueExists(`${queue}.dlq`)).toBe(true);
    await context.send(`amqp:queue:${queue}?${temporary}`, { n: 1 });
    await waitFor("the message", () => seen.length === 1);
    await context.stop();

    expect(seen).toEqual([{ n: 1 }]);
    expect(await inspector.queueExists(queue)).toBe(false);
    expect(await inspector.queueExists(`${queue}.dlq`)).toBe(false);
  });

  it("an exchange consumer's private queue is temporary too: its dead-letter queue goes at stop", async () => {
    const exchangeName = uniqueName("private");
    inspector.track([`${exchangeName}.dlq`], [exchangeName]);
    const context = newContext();
    await context.addRoutes((r) => {
      r.from(`amqp:exchange:${exchangeName}?exchangeType=fanout`).to("mock:private");
    });
    await context.start();
    expect(await inspector.queueExists(`${exchangeName}.dlq`)).toBe(true);
    await context.stop();
    expect(await inspector.queueExists(`${exchangeName}.dlq`)).toBe(false);
  });

  it("keeps the dead letters of an autoDelete queue for a consumer with the same options, which sees every dead-letter header", async () => {
    const queue = queueName("temporary-failing");
    const failing = newContext();
    await failing.addRoutes((r) => {
      r.from(`amqp:queue:${queue}?${temporary}&maxRedeliveries=1`)
        .routeId("always-fails")
        .process(() => {
          throw new Error("cannot enrich");
        });
    });
    await failing.start();
    await failing.send(`amqp:queue:${queue}?${temporary}`, { n: 7 }, { tenant: "acme" });
    await waitFor("the dead letter", async () => (await inspector.messageCount(`${queue}.dlq`)) === 1);
    await failing.stop();
    expect(await inspector.queueExists(queue)).toBe(false);
    expect(await inspector.messageCount(`${queue}.dlq`)).toBe(1);

    const seen: { body: unknown; headers: Headers }[] = [];
    const reader = newContext();
    await reader.addRoutes((r) => {
      r.from(`amqp:queue:${queue}.dlq?${temporary}`).process((exchange) => {
        seen.push({ body: exchange.body, headers: { ...exchange.headers } });
      });
    });
    await reader.start();
    await waitFor("the dead letter read", () => seen.length === 1);
    expect(seen[0]?.body).toEqual({ n: 7 });
    expect(seen[0]?.headers).toMatchObject({
      tenant: "acme",
      [amqpHeader.redeliveries]: 1,
      [amqpHeader.route]: "always-fails",
      [amqpHeader.queue]: queue,
    });
    expect(seen[0]?.headers[amqpHeader.error]).toBe("Error: cannot enrich");
    expect(Date.parse(String(seen[0]?.headers[amqpHeader.failedAt]))).not.toBeNaN();
    expect(await inspector.queueExists(`${queue}.dlq.dlq`)).toBe(false);
    await reader.stop();
    expect(await inspector.queueExists(`${queue}.dlq`)).toBe(false);
  });

  it("dead-letters an error that is not worth retrying (retryable: false) at once, and redelivers the others", async () => {
    const queue = queueName("permanent");
    const attempts: string[] = [];
    const context = newContext();
    await context.addRoutes((r) => {
      r.from(`amqp:queue:${queue}?${temporary}&maxRedeliveries=2`)
        .routeId("validates")
        .process((exchange) => {
          attempts.push(String(exchange.body));
          if (exchange.body === "invalid")
            throw new RoutekitError("EXCHANGE_INVALID", "order has no lines", { retryable: false });
          throw new Error("store unreachable");
        });
    });
    await context.start();
    await context.send(`amqp:queue:${queue}?${temporary}`, "invalid");
    await waitFor("the dead letter", async () => (await inspector.messageCount(`${queue}.dlq`)) === 1);
    expect(attempts).toEqual(["invalid"]);
    await context.send(`amqp:queue:${queue}?${temporary}`, "transient");
    await waitFor("the second dead letter", async () => (await inspector.messageCount(`${queue}.dlq`)) === 2);
    expect(attempts).toEqual(["invalid", "transient", "transient", "transient"]);
  });

  it("writes the error of a dead letter without the credentials the message's headers carry", async () => {
    const queue = queueName("secret-error");
    const key = "ak-7f3a9c2e41b0";
    const failing = newContext();
    await failing.addRoutes((r) => {
      r.from(`amqp:queue:${queue}?${temporary}&maxRedeliveries=0`).process((exchange) => {
        // A backend's refusal that echoes the key, JSON-escaped, and the caller's token.
        throw new Error(
          `backend said {"key":"${key.replace("a", "\\u0061")}"} to ${String(exchange.headers.authorization)}`,
        );
      });
    });
    await failing.start();
    await failing.send(`amqp:queue:${queue}?${temporary}`, "order", {
      "x-api-key": key,
      authorization: "Bearer tk-55b1e0aa9d7c",
    });
    await waitFor("the dead letter", async () => (await inspector.messageCount(`${queue}.dlq`)) === 1);
    const [dead] = await inspector.drain(`${queue}.dlq`);
    const error = String(dead?.properties.headers?.[amqpHeader.error]);
    expect(error).toBe('Error: backend said {"key":"[redacted]"} to [redacted]');
    await failing.stop();
  });

  it("a dead-letter queue's consumer declares no dead-letter queue of its own and does not redeliver", async () => {
    const queue = queueName("durable");
    const failing = newContext();
    await failing.addRoutes((r) => {
      r.from(`amqp:queue:${queue}?maxRedeliveries=0`).process(() => {
        throw new Error("first failure");
      });
    });
    await failing.start();
    await failing.send(`amqp:queue:${queue}`, "poison");
    await waitFor("the dead letter", async () => (await inspector.messageCount(`${queue}.dlq`)) === 1);
    await failing.stop();

    let attempts = 0;
    const replay = newContext();
    await replay.addRoutes((r) => {
      r.from(`amqp:queue:${queue}.dlq?maxRedeliveries=3`).process(() => {
        attempts++;
        throw new Error("replay failed too");
      });
    });
    await replay.start();
    await waitFor("the replay attempt", () => attempts === 1);
    await replay.stop();

    expect(attempts).toBe(1);
    expect(await inspector.messageCount(`${queue}.dlq`)).toBe(0);
    expect(await inspector.queueExists(`${queue}.dlq.dlq`)).toBe(false);
  });

  it("a consumer of a dead-letter queue declared with other options is told which options to use", async () => {
    const queue = queueName("mismatch");
    const context = newContext();
    await context.addRoutes((r) => {
      r.from(`amqp:queue:${queue}`).to("mock:never");
      r.from(`amqp:queue:${queue}.dlq?autoDelete=true`).to("mock:never");
    });
    const error = await context.start().catch((caught: unknown) => caught);
    let amqpError: unknown = error;
    while (amqpError instanceof Error && !(amqpError instanceof AmqpError)) amqpError = amqpError.cause;
    expect(amqpError).toBeInstanceOf(AmqpError);
    expect((amqpError as AmqpError).code).toBe("TOPOLOGY_FAILED");
    expect((amqpError as AmqpError).message).toMatch(/inequivalent arg 'auto_delete'/);
    // Whichever of the two declares it second is told the rule and what to change.
    expect((amqpError as AmqpError).message).toContain(
      "a dead-letter queue NAME.dlq is declared with the durable of NAME's consumer, and autoDelete when NAME is temporary",
    );
    expect((amqpError as AmqpError).message).toMatch(
      new RegExp(
        `consume it with the same durable and autoDelete as (the consumer of '${queue}'|this endpoint)`,
      ),
    );
  });
});
