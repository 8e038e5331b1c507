import { AmqpError, amqpPlugin } from "@routekit/amqp";
import { createContext, EndpointOptionError, RoutekitError } from "@routekit/core";
import { describe, expect, it } from "vitest";

async function addRoute(uri: string, as: "from" | "to" = "from"): Promise<unknown> {
  const context = createContext();
  context.use(amqpPlugin());
  try {
    await context.addRoutes((r) => {
      if (as === "from") r.from(uri).to("mock:out");
      else r.from("direct:in").to(uri);
    });
    return undefined;
  } catch (error) {
    return error;
  }
}

describe("amqp: endpoint URIs", () => {
  it("accepts queue and exchange endpoints with their options (no broker needed to add routes)", async () => {
    expect(
      await addRoute("amqp:queue:orders?prefetch=50&concurrentConsumers=2&maxRedeliveries=0"),
    ).toBeUndefined();
    expect(
      await addRoute("amqp:exchange:events?exchangeType=topic&routingKey=order.*&queue=audit"),
    ).toBeUndefined();
    expect(await addRoute("amqp:exchange:events?routingKey=a.b&mandatory=true", "to")).toBeUndefined();
  });

  it("names an unknown option and the nearest valid one", async () => {
    const error = await addRoute("amqp:queue:orders?prefech=5");
    expect(error).toBeInstanceOf(EndpointOptionError);
    expect((error as EndpointOptionError).option).toBe("prefech");
    expect((error as Error).message).toMatch(/unknown option 'prefech' \(did you mean prefetch\?\)/);
  });

  it("rejects bad values, naming the option and what it expects", async () => {
    expect(String(await addRoute("amqp:queue:q?prefetch=0"))).toMatch(
      /option 'prefetch' expects a value >= 1 \(found '0'\)/,
    );
    expect(String(await addRoute("amqp:queue:q?durable=yes"))).toMatch(
      /option 'durable' expects true or false/,
    );
    expect(String(await addRoute("amqp:exchange:e?exchangeType=topc"))).toMatch(
      /option 'exchangeType' expects one of direct, topic, fanout, headers \(did you mean topic\?\)/,
    );
    expect(String(await addRoute("amqp:queue:q?maxRedeliveries=-1"))).toMatch(
      /'maxRedeliveries' expects a value >= 0/,
    );
  });

  it("rejects paths that are neither a queue nor an exchange, and empty names", async () => {
    const kind = await addRoute("amqp:topic:orders");
    expect(kind).toBeInstanceOf(RoutekitError);
    expect((kind as RoutekitError).code).toBe("URI_INVALID");
    expect((kind as Error).message).toMatch(
      /expected 'amqp:queue:NAME' or 'amqp:exchange:NAME' \(found path 'topic:orders'\)/,
    );
    expect(String(await addRoute("amqp:queue:"))).toMatch(/the queue name must be 1 to 255 characters/);
  });

  it("rejects exchange-only options on queue endpoints", async () => {
    const error = await addRoute("amqp:queue:orders?routingKey=x", "to");
    expect(error).toBeInstanceOf(EndpointOptionError);
    expect((error as Error).message).toMatch(
      /option 'routingKey' applies to 'amqp:exchange:' endpoints only/,
    );
  });
});

describe("amqpPlugin options", () => {
  it("refuses bad settings with a clear error, without leaking a password", () => {
    const fail = (options: Parameters<typeof amqpPlugin>[0]): AmqpError => {
      try {
        amqpPlugin(options);
      } catch (error) {
        return error as AmqpError;
      }
      throw new Error("expected amqpPlugin to throw");
    };
    const url = fail({ url: "http://user:secret@127.0.0.1" });
    expect(url.code).toBe("OPTIONS_INVALID");
    expect(url.message).toBe(
      "amqpPlugin: option 'url' expects an 'amqp://' or 'amqps://' URL (found http://user:***@127.0.0.1)",
    );
    expect(fail({ reconnect: { initialDelayMs: 0 } }).message).toMatch(
      /'reconnect.initialDelayMs' expects a positive number/,
    );
    expect(fail({ reconnect: { initialDelayMs: 500, maxDelayMs: 100 } }).message).toMatch(
      /'reconnect.maxDelayMs' expects a value >= reconnect.initialDelayMs \(500\) \(found 100\)/,
    );
    expect(fail({ connectTimeoutMs: Number.NaN }).message).toMatch(
      /'connectTimeoutMs' expects a positive number/,
    );
  });

  it("fails start with CONNECTION_FAILED naming the (redacted) URL when no broker answers", async () => {
    const context = createContext();
    // Port 1 on loopback: nothing listens there, the connection is refused at once.
    context.use(amqpPlugin({ url: "amqp://guest:hidden@127.0.0.1:1", connectTimeoutMs: 300 }));
    await context.addRoutes((r) => r.from("amqp:queue:never").to("mock:out"));
    const error = await context.start().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AmqpError);
    expect((error as AmqpError).code).toBe("CONNECTION_FAILED");
    expect((error as Error).message).toMatch(
      /Cannot reach RabbitMQ at amqp:\/\/guest:\*\*\*@127\.0\.0\.1:1: no connection within 300 ms \(last error: .*ECONNREFUSED/,
    );
    expect((error as Error).message).not.toContain("hidden");
  });

  it("fails a send with PUBLISH_TIMEOUT when the broker stays unreachable past sendTimeout", async () => {
    const context = createContext();
    context.use(
      amqpPlugin({
        url: "amqp://guest:guest@127.0.0.1:1",
        reconnect: { initialDelayMs: 20, maxDelayMs: 50 },
      }),
    );
    await context.start();
    const error = await context
      .send("amqp:queue:nowhere?sendTimeout=300", "x")
      .catch((caught: unknown) => caught);
    const cause = error instanceof AmqpError ? error : (error as Error).cause;
    expect(cause).toBeInstanceOf(AmqpError);
    expect((cause as AmqpError).code).toBe("PUBLISH_TIMEOUT");
    expect((cause as Error).message).toMatch(
      /No confirm from the broker for queue 'nowhere' in time \(last error: .*ECONNREFUSED/,
    );
    await context.stop();
  });
});
