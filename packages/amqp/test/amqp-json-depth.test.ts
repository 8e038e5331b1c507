import { amqpHeader, amqpPlugin, decodeBody } from "@routekit/amqp";
import { createContext, type RouteContext } from "@routekit/core";
import { waitFor } from "@routekit/test-support";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { BrokerInspector, brokerAvailable, uniqueName } from "./support/broker.js";

const inspector = new BrokerInspector();
const contexts: RouteContext[] = [];
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.stop({ timeoutMs: 2000 }).catch(() => {});
  if (brokerAvailable) await inspector.cleanup();
});
afterAll(() => inspector.close());

const deep = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;

describe("attack: deeply nested JSON message bodies", () => {
  it("decodeBody refuses nesting past the limit (default 128) before parsing, and takes strings as they are", () => {
    expect(() => decodeBody(Buffer.from(deep(100_000)), "application/json")).toThrow(
      /body is refused .*JSON nested more than 128 levels deep \(at character 129\) \(endpoint option 'maxJsonDepth'\)/,
    );
    expect(decodeBody(Buffer.from(deep(128)), "application/json")).toBeInstanceOf(Array);
    expect(decodeBody(Buffer.from(JSON.stringify({ a: '[[[[\\"' })), "application/json", 1)).toEqual({
      a: '[[[[\\"',
    });
    expect(() => decodeBody(Buffer.from("[[1]]"), "application/json", 1)).toThrow(/more than 1 levels/);
  });

  it.skipIf(!brokerAvailable)(
    "a consumer dead-letters a too-deep body at once, the limit set by maxJsonDepth",
    async () => {
      const input = uniqueName("deep-in");
      inspector.track([input, `${input}.dlq`]);
      const context = createContext();
      context.use(amqpPlugin());
      contexts.push(context);
      let reads = 0;
      await context.addRoutes((r) =>
        r.from(`amqp:queue:${input}?maxJsonDepth=16`).process((exchange) => {
          reads++;
          return void exchange.body;
        }),
      );
      await context.start();
      const channel = await inspector.channel();
      channel.sendToQueue(input, Buffer.from(deep(17)), { contentType: "application/json" });
      await waitFor("the dead letter", async () => (await inspector.messageCount(`${input}.dlq`)) === 1);
      const [dead] = await inspector.drain(`${input}.dlq`);
      expect(reads).toBe(1);
      expect(dead?.properties.headers?.[amqpHeader.redeliveries]).toBe(0);
      expect(dead?.properties.headers?.[amqpHeader.error]).toMatch(
        /JSON nested more than 16 levels deep \(at character 17\) \(endpoint option 'maxJsonDepth'\)/,
      );
    },
  );
});
