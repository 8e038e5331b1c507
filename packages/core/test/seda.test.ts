import { createContext, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop({ timeoutMs: 2000 });
});

const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
};

describe("seda", () => {
  it("queues InOnly messages for an asynchronous consumer", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("seda:work")
        .setBody((exchange) => `done ${String(exchange.body)}`)
        .to("mock:out"),
    );
    await context.start();
    for (let index = 0; index < 5; index++) await context.send("seda:work", index);
    const mock = context
      .endpoint("mock:out")
      .expectedBodiesReceived("done 0", "done 1", "done 2", "done 3", "done 4");
    await mock.assertIsSatisfied(2000);
  });

  it("makes the producer wait when the queue is full, and loses nothing", async () => {
    context = createContext();
    const release = gate();
    const processed: number[] = [];
    await context.addRoutes((r) =>
      r.from<number>("seda:slow?size=2").process(async (exchange) => {
        await release.opened;
        processed.push(exchange.body);
      }),
    );
    await context.start();
    const accepted: number[] = [];
    const sends = Array.from({ length: 8 }, (_, index) =>
      context.send("seda:slow?size=2", index).then(() => accepted.push(index)),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    // one message is being processed, two are queued: the rest wait for room.
    expect(accepted.length).toBe(3);
    release.open();
    await Promise.all(sends);
    await context.stop();
    expect(processed).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("fails a producer after offerTimeout, or at once with blockWhenFull=false", async () => {
    context = createContext();
    const release = gate();
    await context.addRoutes((r) => r.from("seda:tight?size=1").process(() => release.opened));
    await context.start();
    await context.send("seda:tight?size=1", "processing");
    await context.send("seda:tight?size=1", "queued");
    await expect(context.send("seda:tight?size=1&offerTimeout=30", "late")).rejects.toThrow(
      "Queue 'seda:tight' stayed full (capacity 1) for 30 ms",
    );
    await expect(context.send("seda:tight?size=1&blockWhenFull=false", "late")).rejects.toThrow(
      "Queue 'seda:tight' is full (size 1) and blockWhenFull=false",
    );
    release.open();
  });

  it("InOnly sends resolve once queued, whatever the consumer does later", async () => {
    const logged: string[] = [];
    const logger = {
      trace() {},
      debug() {},
      info() {},
      warn() {},
      error: (line: string) => logged.push(line),
    };
    context = createContext({ logger });
    await context.addRoutes((r) =>
      r
        .from("seda:fails-later")
        .routeId("later")
        .process(() => {
          throw new Error("consumer broke");
        }),
    );
    await context.start();
    await expect(context.send("seda:fails-later", 1)).resolves.toBeUndefined();
    await context.stop();
    // nobody waits for the message, so its failure is logged with the route and the step
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(
      /^seda:fails-later: exchange \S+ failed in route 'later' at step #1 process: Error: consumer broke$/,
    );
  });

  it("a route sending on keeps its own message: the queued one is a copy", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:producer")
        .to("seda:copied")
        .process((exchange) => {
          exchange.body = "changed after sending";
          exchange.headers.late = true;
        });
      r.from("seda:copied").to("mock:copied");
    });
    await context.start();
    await context.request("direct:producer", "original");
    const mock = context.endpoint("mock:copied").expectedBodiesReceived("original");
    await mock.assertIsSatisfied(1000);
    expect(mock.received[0]?.headers.late).toBeUndefined();
  });

  it("a route reached by context.send keeps its own message too when it sends on to seda", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:handed")
        .to("seda:handed-on")
        .process((exchange) => {
          exchange.body = "changed after sending";
          exchange.headers.late = true;
        });
      r.from("seda:handed-on").to("mock:handed-on");
    });
    await context.start();
    await context.send("direct:handed", "original");
    const mock = context.endpoint("mock:handed-on").expectedBodiesReceived("original");
    await mock.assertIsSatisfied(1000);
    expect(mock.received[0]?.headers.late).toBeUndefined();
  });

  it("InOut producers wait for the reply", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r.from("seda:reply").process(async (exchange) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        exchange.body = `reply to ${String(exchange.body)}`;
        exchange.headers.answered = true;
      }),
    );
    await context.start();
    const exchange = await context.requestExchange("seda:reply", { body: "q" });
    expect(exchange.body).toBe("reply to q");
    expect(exchange.headers.answered).toBe(true);
  });

  it("InOut producers see the consumer's failure", async () => {
    context = createContext();
    await context.addRoutes((r) =>
      r
        .from("seda:fails")
        .routeId("failing")
        .process(() => {
          throw new Error("consumer broke");
        }),
    );
    await context.start();
    await expect(context.request("seda:fails", 1)).rejects.toThrow(
      "Route 'failing' failed at step #1 process: Error: consumer broke",
    );
  });

  it("runs concurrent consumers", async () => {
    context = createContext();
    let active = 0;
    let peak = 0;
    await context.addRoutes((r) =>
      r.from("seda:par?concurrentConsumers=4").process(async () => {
        active++;
        peak = Math.max(peak, active);
        await new Promise((resolve) => setTimeout(resolve, 20));
        active--;
      }),
    );
    await context.start();
    await Promise.all(
      Array.from({ length: 8 }, (_, index) => context.send("seda:par?concurrentConsumers=4", index)),
    );
    await context.stop();
    expect(peak).toBe(4);
  });

  it("delivers a copy to every consumer with multipleConsumers", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("seda:news?multipleConsumers=true").to("mock:a");
      r.from("seda:news?multipleConsumers=true").to("mock:b");
    });
    await context.start();
    await context.send("seda:news?multipleConsumers=true", "hello");
    await context.endpoint("mock:a").expectedBodiesReceived("hello").assertIsSatisfied(1000);
    await context.endpoint("mock:b").expectedBodiesReceived("hello").assertIsSatisfied(1000);
  });

  it("graceful stop drains queued and in-flight work", async () => {
    context = createContext();
    const processed: number[] = [];
    await context.addRoutes((r) =>
      r.from<number>("seda:drain").process(async (exchange) => {
        await new Promise((resolve) => setTimeout(resolve, 2));
        processed.push(exchange.body);
      }),
    );
    await context.start();
    for (let index = 0; index < 50; index++) await context.send("seda:drain", index);
    await context.stop();
    expect(processed).toHaveLength(50);
  });

  it("stop past its timeout aborts in-flight work through the signal and names it", async () => {
    context = createContext();
    let aborted: unknown;
    await context.addRoutes((r) =>
      r
        .from("seda:stuck")
        .routeId("stuck")
        .process(
          (exchange) =>
            new Promise<void>((resolve) => {
              exchange.signal.addEventListener("abort", () => {
                aborted = exchange.signal.reason;
                resolve();
              });
            }),
        ),
    );
    await context.start();
    await context.send("seda:stuck", 1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const error = await context.stop({ timeoutMs: 50 }).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(
      /Stop timed out after 50 ms; in flight at the timeout: route 'stuck' \(1 in flight\)/,
    );
    expect((aborted as Error).message).toContain("did not stop within 50 ms");
  });

  it("refuses endpoints that disagree on the queue size", async () => {
    context = createContext();
    await expect(
      context.addRoutes((r) => {
        r.from("seda:sized?size=5").to("mock:a");
        r.from("direct:x").to("seda:sized?size=6");
      }),
    ).rejects.toThrow("already exists with size 5");
  });
});
