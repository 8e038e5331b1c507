import { AmqpError, amqpHeader, amqpPlugin } from "@routekit/amqp";
import { createContext, type RouteContext } from "@routekit/core";
import { waitFor } from "@routekit/test-support";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { BrokerInspector, brokerAvailable, uniqueName } from "./support/broker.js";

// A delivery's body stays in its wire form until a step reads it: a route that only moves
// messages sends the bytes on as they came, and only a route that reads the body decodes it.

const inspector = new BrokerInspector();
const contexts: RouteContext[] = [];

function newContext(): RouteContext {
  const context = createContext();
  context.use(amqpPlugin());
  contexts.push(context);
  return context;
}

function queues<TLabels extends string[]>(...labels: TLabels): { [K in keyof TLabels]: string } {
  const names = labels.map((label) => uniqueName(label));
  inspector.track(names.flatMap((name) => [name, `${name}.dlq`]));
  return names as { [K in keyof TLabels]: string };
}

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.stop({ timeoutMs: 2000 }).catch(() => {});
  if (brokerAvailable) await inspector.cleanup();
});
afterAll(() => inspector.close());

/** What arrives on `queue` once `count` messages are there: content as text and content type. */
async function arrived(queue: string, count: number) {
  // The producer declares the queue with its first send: until then it does not exist.
  await waitFor(
    `${count} messages on ${queue}`,
    async () => (await inspector.queueExists(queue)) && (await inspector.messageCount(queue)) === count,
  );
  return (await inspector.drain(queue)).map((message) => ({
    text: message.content.toString("latin1"),
    contentType: message.properties.contentType as unknown,
  }));
}

describe.skipIf(!brokerAvailable)("amqp: a body is decoded only when a step reads it", () => {
  it("sends the bytes on as they came when the route never reads the body, whatever they hold", async () => {
    const [input, output] = queues("wire-in", "wire-out");
    const context = newContext();
    await context.addRoutes((r) =>
      r.from(`amqp:queue:${input}`).setHeader("seen", "yes").to(`amqp:queue:${output}`),
    );
    await context.start();
    const channel = await inspector.channel();
    const sent = [
      // JSON as a person typed it: spacing and key order survive (decoding and encoding again would not).
      { text: '{ "b": 2,   "a": [1, 2] }', contentType: "application/json" },
      // Bytes that are not JSON under a JSON type pass through: nothing read them.
      { text: "{oops", contentType: "application/json" },
      { text: "caf\u00e9", contentType: "text/plain; charset=iso-8859-1" },
      { text: "\u0000\u00ff\u0001", contentType: "application/octet-stream" },
    ];
    for (const { text, contentType } of sent) {
      channel.sendToQueue(input, Buffer.from(text, "latin1"), { contentType });
    }
    expect(await arrived(output, sent.length)).toEqual(sent);
    expect(await inspector.messageCount(`${input}.dlq`)).toBe(0);
  });

  it("encodes the body anew once a step read and changed it", async () => {
    const [input, output] = queues("read-in", "read-out");
    const context = newContext();
    await context.addRoutes((r) =>
      r
        .from(`amqp:queue:${input}`)
        .process((exchange) => {
          (exchange.body as { a: number[] }).a.push(3);
        })
        .to(`amqp:queue:${output}`),
    );
    await context.start();
    const channel = await inspector.channel();
    channel.sendToQueue(input, Buffer.from('{ "a": [1, 2] }'), { contentType: "application/json" });
    expect(await arrived(output, 1)).toEqual([{ text: '{"a":[1,2,3]}', contentType: "application/json" }]);
  });

  it("lets the route's own error handler deal with a body that cannot be decoded, bytes intact", async () => {
    const [input, rejected] = queues("handled-in", "handled-out");
    const failures: string[] = [];
    const context = newContext();
    await context.addRoutes((r) =>
      r
        .from(`amqp:queue:${input}`)
        .onException(AmqpError, {
          handled: true,
          step: (s) =>
            s
              .process((exchange) => {
                const caught = exchange.properties["routekit.exceptionCaught"];
                failures.push(caught instanceof AmqpError ? caught.code : String(caught));
              })
              .to(`amqp:queue:${rejected}`),
        })
        .process((exchange) => {
          if ((exchange.body as { ok?: boolean }).ok !== true) throw new Error("not reached");
        }),
    );
    await context.start();
    const channel = await inspector.channel();
    channel.sendToQueue(input, Buffer.from("{oops"), { contentType: "application/json" });
    expect(await arrived(rejected, 1)).toEqual([{ text: "{oops", contentType: "application/json" }]);
    expect(failures).toEqual(["DECODE_FAILED"]);
    expect(await inspector.messageCount(input)).toBe(0);
    expect(await inspector.messageCount(`${input}.dlq`)).toBe(0);
  });

  it("dead-letters an undecodable body at once, without redeliveries, when the route does not handle it", async () => {
    const [input] = queues("undecodable-once");
    let reads = 0;
    const context = newContext();
    await context.addRoutes((r) =>
      r.from(`amqp:queue:${input}?maxRedeliveries=3`).process((exchange) => {
        reads++;
        return void exchange.body;
      }),
    );
    await context.start();
    const channel = await inspector.channel();
    channel.sendToQueue(input, Buffer.from("[1,"), { contentType: "application/vnd.order+json" });
    const [dead] = await (async () => {
      await waitFor("the dead letter", async () => (await inspector.messageCount(`${input}.dlq`)) === 1);
      return inspector.drain(`${input}.dlq`);
    })();
    expect(reads).toBe(1);
    expect(String(dead?.content)).toBe("[1,");
    expect(dead?.properties.contentType).toBe("application/vnd.order+json");
    expect(dead?.properties.headers?.[amqpHeader.redeliveries]).toBe(0);
    expect(dead?.properties.headers?.[amqpHeader.error]).toMatch(/AmqpError: .*not valid JSON/);
  });
});
