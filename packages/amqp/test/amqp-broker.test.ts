import { AmqpError, amqpHeader, amqpPlugin, amqpProperty } from "@routekit/amqp";
import { createContext, type Exchange, type RouteContext } from "@routekit/core";
import { waitFor } from "@routekit/test-support";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  applyQueuePolicy,
  BrokerInspector,
  brokerAvailable,
  closeAllConnections,
  uniqueName,
} from "./support/broker.js";
import { spawnWorker, type WorkerProcess } from "./support/spawn-worker.js";

const inspector = new BrokerInspector();
const contexts: RouteContext[] = [];
const workers: WorkerProcess[] = [];

function newContext(): RouteContext {
  const context = createContext();
  context.use(amqpPlugin({ reconnect: { initialDelayMs: 50, maxDelayMs: 500 } }));
  contexts.push(context);
  return context;
}

/** Queue names for a test, tracked for deletion (with their dead-letter queues). */
function queues<TLabels extends string[]>(...labels: TLabels): { [K in keyof TLabels]: string } {
  const names = labels.map((label) => uniqueName(label));
  inspector.track(names.flatMap((name) => [name, `${name}.dlq`]));
  return names as { [K in keyof TLabels]: string };
}

function amqpErrorIn(error: unknown): AmqpError | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current instanceof AmqpError) return current;
  }
  return undefined;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, index) => from + index);
}

afterEach(async () => {
  for (const worker of workers.splice(0)) worker.child.kill("SIGKILL");
  for (const context of contexts.splice(0)) await context.stop({ timeoutMs: 2000 }).catch(() => {});
  if (brokerAvailable) await inspector.cleanup();
});
afterAll(() => inspector.close());

describe.skipIf(!brokerAvailable)("amqp: on RabbitMQ", () => {
  it("moves 5,000 messages through two queues and loses none", { timeout: 40_000 }, async () => {
    const [first, second] = queues("load-in", "load-out");
    const received = new Set<number>();
    const context = newContext();
    await context.addRoutes((r) => {
      r.from(`amqp:queue:${first}?prefetch=100`).routeId("forward").to(`amqp:queue:${second}`);
      r.from(`amqp:queue:${second}?prefetch=100`)
        .routeId("collect")
        .process((exchange) => {
          received.add((exchange.body as { n: number }).n);
        });
    });
    await context.start();
    for (let start = 0; start < 5000; start += 500) {
      await Promise.all(range(start, start + 500).map((n) => context.send(`amqp:queue:${first}`, { n })));
    }
    await waitFor("5,000 distinct messages", () => received.size === 5000, 30_000);
    expect([...received].sort((a, b) => a - b)).toEqual(range(0, 5000));
    await context.stop();
    expect(await inspector.messageCount(first)).toBe(0);
    expect(await inspector.messageCount(second)).toBe(0);
  });

  it("redelivers a failing message, then dead-letters it with the error while the others pass", async () => {
    const [queue] = queues("dead-letter");
    const attempts = new Map<number, number[]>();
    const context = newContext();
    await context.addRoutes((r) => {
      r.from(`amqp:queue:${queue}?maxRedeliveries=2`)
        .routeId("picky")
        .process((exchange) => {
          const n = (exchange.body as { n: number }).n;
          attempts.set(n, [
            ...(attempts.get(n) ?? []),
            exchange.properties[amqpProperty.redeliveries] as number,
          ]);
          if (n === 3) throw new Error("cannot handle 3");
        });
    });
    await context.start();
    await Promise.all(
      range(0, 10).map((n) => context.send(`amqp:queue:${queue}`, { n }, { tenant: "acme" })),
    );
    await waitFor(
      "the dead-lettered message",
      async () => (await inspector.messageCount(`${queue}.dlq`)) === 1,
    );
    await waitFor("every message", () => attempts.size === 10);

    expect(attempts.get(3)).toEqual([0, 1, 2]);
    for (const n of range(0, 10).filter((n) => n !== 3)) expect(attempts.get(n)).toEqual([0]);
    const [dead] = await inspector.drain(`${queue}.dlq`);
    expect(JSON.parse(String(dead?.content))).toEqual({ n: 3 });
    expect(dead?.properties.contentType).toBe("application/json");
    expect(dead?.properties.headers).toMatchObject({
      tenant: "acme",
      [amqpHeader.route]: "picky",
      [amqpHeader.queue]: queue,
      [amqpHeader.redeliveries]: 2,
    });
    expect(dead?.properties.headers?.[amqpHeader.error]).toMatch(/cannot handle 3/);
    expect(await inspector.messageCount(queue)).toBe(0);
  });

  it("dead-letters a body that cannot be decoded at once, and keeps going", async () => {
    const [queue] = queues("undecodable");
    const bodies: unknown[] = [];
    const context = newContext();
    await context.addRoutes((r) => {
      r.from(`amqp:queue:${queue}`).process((exchange) => {
        bodies.push(exchange.body);
      });
    });
    await context.start();
    const channel = await inspector.channel();
    channel.sendToQueue(queue, Buffer.from("{oops"), { contentType: "application/json" });
    channel.sendToQueue(queue, Buffer.from('{"fine":true}'), { contentType: "application/json" });
    await waitFor("the good message", () => bodies.length === 1);
    await waitFor(
      "the bad one dead-lettered",
      async () => (await inspector.messageCount(`${queue}.dlq`)) === 1,
    );
    expect(bodies).toEqual([{ fine: true }]);
    const [dead] = await inspector.drain(`${queue}.dlq`);
    expect(String(dead?.content)).toBe("{oops");
    expect(dead?.properties.headers?.[amqpHeader.error]).toMatch(/AmqpError: .*not valid JSON/);
  });

  it("drops an exhausted message when dead-lettering is off", async () => {
    const [queue] = queues("no-dead-letter");
    let attempts = 0;
    const context = newContext();
    await context.addRoutes((r) => {
      r.from(`amqp:queue:${queue}?maxRedeliveries=1&deadLetter=false`).process(() => {
        attempts++;
        throw new Error("always fails");
      });
    });
    await context.start();
    await context.send(`amqp:queue:${queue}`, "doomed");
    await waitFor("two attempts", () => attempts === 2);
    await context.stop();
    expect(attempts).toBe(2);
    expect(await inspector.messageCount(queue)).toBe(0);
    expect(await inspector.queueExists(`${queue}.dlq`)).toBe(false);
  });

  it("runs concurrentConsumers channels side by side, each bounded by its prefetch", async () => {
    const [queue] = queues("concurrent");
    let running = 0;
    let mostAtOnce = 0;
    let done = 0;
    const context = newContext();
    await context.addRoutes((r) => {
      r.from(`amqp:queue:${queue}?concurrentConsumers=2&prefetch=1`).process(async () => {
        mostAtOnce = Math.max(mostAtOnce, ++running);
        await new Promise((resolve) => setTimeout(resolve, 150));
        running--;
        done++;
      });
    });
    await context.start();
    await Promise.all(range(0, 6).map((n) => context.send(`amqp:queue:${queue}`, n)));
    await waitFor("six messages", () => done === 6);
    expect(mostAtOnce).toBe(2);
  });

  it("carries headers across the broker; exchange properties never leave the process", async () => {
    const [queue] = queues("headers");
    const context = newContext();
    await context.addRoutes((r) => {
      r.from("direct:publish").setProperty("secret", "s3cr3t-property-value").to(`amqp:queue:${queue}`);
    });
    await context.start();
    const headers = { tenant: "acme", attempt: 2, nested: { tags: ["a", "b"], ok: true }, drop: () => "no" };
    await context.send("direct:publish", { order: 1 }, headers);

    const [raw] = await inspector.drain(queue);
    expect(raw?.properties.headers).toEqual({
      tenant: "acme",
      attempt: 2,
      nested: { tags: ["a", "b"], ok: true },
    });
    expect(raw?.properties.deliveryMode).toBe(2);
    expect(JSON.stringify(raw?.properties)).not.toContain("s3cr3t");
    expect(String(raw?.content)).not.toContain("s3cr3t");

    let seen: Exchange | undefined;
    await context.addRoutes((r) => {
      r.from(`amqp:queue:${queue}`).process((exchange) => {
        seen = exchange;
      });
    });
    await context.send("direct:publish", { order: 2 }, headers);
    await waitFor("the consumed message", () => seen !== undefined);
    expect(seen?.body).toEqual({ order: 2 });
    expect(seen?.headers).toEqual({ tenant: "acme", attempt: 2, nested: { tags: ["a", "b"], ok: true } });
    expect(seen?.properties.secret).toBeUndefined();
    expect(seen?.properties[amqpProperty.queue]).toBe(queue);
    expect(seen?.properties[amqpProperty.redelivered]).toBe(false);
  });

  it("round-trips text and bytes with their content types", async () => {
    const [queue] = queues("bodies");
    const bodies: unknown[] = [];
    const context = newContext();
    await context.addRoutes((r) => {
      r.from(`amqp:queue:${queue}`).process((exchange) => {
        bodies.push(exchange.body);
      });
    });
    await context.start();
    await context.send(`amqp:queue:${queue}`, "plain text");
    await waitFor("the text", () => bodies.length === 1);
    await context.send(`amqp:queue:${queue}`, Buffer.from([0, 255]));
    await waitFor("the bytes", () => bodies.length === 2);
    expect(bodies).toEqual(["plain text", Buffer.from([0, 255])]);
  });

  it("answers requests over reply-to, reports a failed remote route, and times out without a consumer", async () => {
    const [service, nobody] = queues("service", "nobody");
    const context = newContext();
    await context.addRoutes((r) => {
      r.from(`amqp:queue:${service}`)
        .routeId("upper")
        .process((exchange) => {
          if (exchange.body === "fail") throw new Error("no thanks");
          exchange.body = String(exchange.body).toUpperCase();
          exchange.headers.handledBy = "upper";
        });
    });
    await context.start();
    expect(await context.request(`amqp:queue:${service}`, "hi")).toBe("HI");
    const reply = await context.requestExchange(`amqp:queue:${service}`, {
      body: "x",
      headers: { trace: "t-1" },
    });
    expect(reply.body).toBe("X");
    expect(reply.headers).toMatchObject({ trace: "t-1", handledBy: "upper" });

    const failure = await context.request(`amqp:queue:${service}`, "fail").catch((error: unknown) => error);
    expect(amqpErrorIn(failure)?.code).toBe("REMOTE_ROUTE_FAILED");
    expect(String((failure as Error).message)).toMatch(/route 'upper'\) failed: .*no thanks/);
    expect(await inspector.messageCount(`${service}.dlq`)).toBe(0);

    // exchangePattern=InOnly publishes even for a request: no reply is awaited, the body stays.
    expect(await context.request(`amqp:queue:${nobody}?exchangePattern=InOnly`, "just publish")).toBe(
      "just publish",
    );
    const [published] = await inspector.drain(nobody);
    expect(String(published?.content)).toBe("just publish");
    expect(published?.properties.replyTo).toBeUndefined();

    const timeout = await context
      .request(`amqp:queue:${nobody}?requestTimeout=300`, "anyone?")
      .catch((error: unknown) => error);
    expect(amqpErrorIn(timeout)?.code).toBe("REQUEST_TIMEOUT");
    expect(String((timeout as Error).message)).toMatch(/No reply from queue '.*nobody.*' within 300 ms/);
    // The request expires in the queue once its caller stopped waiting.
    await waitFor("the expired request", async () => (await inspector.messageCount(nobody)) === 0, 5000);
  });

  it("publishes to a topic exchange; the consumer's binding selects by routing key", async () => {
    const exchangeName = uniqueName("events");
    const [queue] = queues("audit");
    inspector.track([], [exchangeName]);
    const seen: Array<{ id: unknown; key: unknown }> = [];
    const context = newContext();
    await context.addRoutes((r) => {
      r.from(`amqp:exchange:${exchangeName}?exchangeType=topic&routingKey=order.*&queue=${queue}`).process(
        (exchange) => {
          seen.push({
            id: (exchange.body as { id: number }).id,
            key: exchange.properties[amqpProperty.routingKey],
          });
        },
      );
    });
    await context.start();
    const to = (key: string, extra = "") =>
      `amqp:exchange:${exchangeName}?exchangeType=topic&routingKey=${key}${extra}`;
    await context.send(to("order.created"), { id: 1 });
    await context.send(to("invoice.created"), { id: 2 });
    await context.send(to("order.paid"), { id: 3 });
    await waitFor("two order events", () => seen.length === 2);
    expect(seen).toEqual([
      { id: 1, key: "order.created" },
      { id: 3, key: "order.paid" },
    ]);

    const unroutable = await context
      .send(to("nobody.listens", "&mandatory=true"), {})
      .catch((error: unknown) => error);
    expect(amqpErrorIn(unroutable)?.code).toBe("PUBLISH_UNROUTABLE");
  });

  it("rejects a send the broker refuses: topology conflicts and nacks", { timeout: 30_000 }, async () => {
    const [conflicting, limited, fine] = queues("conflict", "limited", "fine");
    const channel = await inspector.channel();
    await channel.assertQueue(conflicting, { durable: false });
    const context = newContext();
    await context.start();

    const conflict = await context.send(`amqp:queue:${conflicting}`, "x").catch((error: unknown) => error);
    expect(amqpErrorIn(conflict)?.code).toBe("TOPOLOGY_FAILED");
    expect(String((conflict as Error).message)).toMatch(
      /declaring the queue .* failed: .*inequivalent arg 'durable'.*use the same options/,
    );
    await context.send(`amqp:queue:${fine}`, "still works");
    expect(await inspector.messageCount(fine)).toBe(1);

    // A queue that holds one message and refuses more: the broker nacks the next publish.
    await channel.assertQueue(limited, { durable: true });
    const removePolicy = await applyQueuePolicy(limited, { "max-length": 1, overflow: "reject-publish" });
    try {
      let refusal: unknown;
      for (let attempt = 0; attempt < 20 && refusal === undefined; attempt++) {
        refusal = await context.send(`amqp:queue:${limited}`, attempt).catch((error: unknown) => error);
      }
      expect(amqpErrorIn(refusal)?.code).toBe("PUBLISH_NACKED");
      expect(String((refusal as Error).message)).toMatch(
        /The broker refused the message for queue '.*limited/,
      );
      expect(await inspector.messageCount(limited)).toBe(1);
    } finally {
      await removePolicy();
    }
  });

  it("stops gracefully: deliveries in progress finish and are acknowledged", async () => {
    const [queue] = queues("graceful");
    let started = 0;
    let finished = 0;
    const context = newContext();
    await context.addRoutes((r) => {
      r.from(`amqp:queue:${queue}?prefetch=5`).process(async () => {
        started++;
        await new Promise((resolve) => setTimeout(resolve, 300));
        finished++;
      });
    });
    await context.start();
    await Promise.all(range(0, 5).map((n) => context.send(`amqp:queue:${queue}`, n)));
    await waitFor("five deliveries in progress", () => started === 5);
    await context.stop({ timeoutMs: 10_000 });
    expect(finished).toBe(5);
    expect(await inspector.messageCount(queue)).toBe(0);
  });

  it("hands a message stopped mid-route to the next consumer", async () => {
    const [queue] = queues("handover");
    const first = newContext();
    let firstAttempts = 0;
    await first.addRoutes((r) => {
      r.from(`amqp:queue:${queue}?prefetch=1`).process(
        (exchange) =>
          new Promise<void>((_, reject) => {
            firstAttempts++;
            exchange.signal.addEventListener("abort", () => reject(new Error("stopped")));
          }),
      );
    });
    await first.start();
    await first.send(`amqp:queue:${queue}`, "handle me");
    await waitFor("the first consumer to hold the message", () => firstAttempts === 1);

    const second = newContext();
    let delivered: Exchange | undefined;
    await second.addRoutes((r) => {
      r.from(`amqp:queue:${queue}?prefetch=1`).process((exchange) => {
        delivered = exchange;
      });
    });
    await second.start();
    await first.stop({ timeoutMs: 200 }).catch(() => {});
    await waitFor("the second consumer to get it", () => delivered !== undefined);
    expect(delivered?.body).toBe("handle me");
    expect(delivered?.properties[amqpProperty.redelivered]).toBe(true);
    expect(delivered?.properties[amqpProperty.redeliveries]).toBe(0);
    expect(firstAttempts).toBe(1);
  });

  it("keeps working when the broker closes every connection", { timeout: 40_000 }, async () => {
    const [queue] = queues("reconnect");
    const received = new Set<number>();
    const context = newContext();
    await context.addRoutes((r) => {
      r.from(`amqp:queue:${queue}?prefetch=20`).process((exchange) => {
        received.add(exchange.body as number);
      });
    });
    await context.start();
    await Promise.all(range(0, 200).map((n) => context.send(`amqp:queue:${queue}`, n)));
    await closeAllConnections();
    await Promise.all(range(200, 400).map((n) => context.send(`amqp:queue:${queue}`, n)));
    await waitFor("all 400 messages after reconnecting", () => received.size === 400, 30_000);
    expect([...received].sort((a, b) => a - b)).toEqual(range(0, 400));
  });

  it("splits one queue between two processes; a killed process's unacked messages go to the other", {
    timeout: 40_000,
  }, async () => {
    const [work, results] = queues("shared", "results");
    workers.push(spawnWorker(work, results, "one"), spawnWorker(work, results, "two"));
    await Promise.all(workers.map((worker) => worker.ready));
    const done = new Map<number, Array<{ worker: unknown; redelivered: unknown }>>();
    const context = newContext();
    await context.addRoutes((r) => {
      r.from(`amqp:queue:${results}?prefetch=50`).process((exchange) => {
        const n = exchange.body as number;
        done.set(n, [
          ...(done.get(n) ?? []),
          { worker: exchange.headers.worker, redelivered: exchange.headers.redelivered },
        ]);
      });
    });
    await context.start();
    const processedBy = (worker: string, numbers: number[]) =>
      numbers.filter((n) => done.get(n)?.some((entry) => entry.worker === worker)).length;

    await Promise.all(range(0, 300).map((n) => context.send(`amqp:queue:${work}`, n)));
    await waitFor("300 results", () => range(0, 300).every((n) => done.has(n)), 20_000);
    expect(processedBy("one", range(0, 300))).toBeGreaterThan(30);
    expect(processedBy("two", range(0, 300))).toBeGreaterThan(30);

    // Slow messages: worker one holds up to its prefetch unacknowledged when it is killed.
    const slow = range(300, 400);
    await Promise.all(slow.map((n) => context.send(`amqp:queue:${work}`, n, { delayMs: 150 })));
    await waitFor("worker one to finish a few slow messages", () => processedBy("one", slow) >= 2);
    workers[0]?.child.kill("SIGKILL");
    await waitFor("every slow message", () => slow.every((n) => done.has(n)), 30_000);
    const redeliveredToTwo = slow.filter((n) =>
      done.get(n)?.some((entry) => entry.worker === "two" && entry.redelivered === true),
    );
    expect(redeliveredToTwo.length).toBeGreaterThan(0);
  });
});
