import { createContext, EXCEPTION_CAUGHT, type RouteContext, type RoutekitEvents } from "@routekit/core";
import { collectingLogger } from "@routekit/test-support";
import { Observable, of, Subject } from "rxjs";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

/** An Observable that counts its subscriptions and teardowns, over a Subject the test drives. */
function countedSource<T>() {
  const subject = new Subject<T>();
  const counts = { subscribed: 0, tornDown: 0 };
  const source = new Observable<T>((subscriber) => {
    counts.subscribed++;
    const inner = subject.subscribe(subscriber);
    return () => {
      counts.tornDown++;
      inner.unsubscribe();
    };
  });
  return { subject, counts, source };
}

describe("from(observable$)", () => {
  it("sends each value through the route as an InOnly exchange, one at a time and in order", async () => {
    context = createContext();
    const { subject, source } = countedSource<{ n: number }>();
    let running = 0;
    let most = 0;
    await context.addRoutes((r) =>
      r
        .from(source)
        .routeId("numbers")
        .process(async (exchange) => {
          running++;
          most = Math.max(most, running);
          await tick(3);
          exchange.body = { n: exchange.body.n * 10 };
          running--;
        })
        .to("mock:numbers"),
    );
    await context.start();
    const mock = context.endpoint("mock:numbers").expectedMessageCount(4);

    for (const n of [1, 2, 3, 4]) subject.next({ n });

    await mock.assertIsSatisfied(2000);
    expect(mock.received.map((exchange) => exchange.body)).toEqual([
      { n: 10 },
      { n: 20 },
      { n: 30 },
      { n: 40 },
    ]);
    expect(mock.received.every((exchange) => exchange.pattern === "InOnly")).toBe(true);
    expect(mock.received[0]?.fromEndpoint).toMatch(/^observable:source-\d+$/);
    expect(most).toBe(1);
    expect(context.routes()[0]).toMatchObject({ id: "numbers", from: mock.received[0]?.fromEndpoint });
    const described = context.describe().routes.find((route) => route.id === "numbers");
    expect(described).toMatchObject({
      from: mock.received[0]?.fromEndpoint,
      aspects: { observableSource: "Observable" },
    });
  });

  it("processes a synchronous source whole, then stays started and idle when it completes", async () => {
    const logger = collectingLogger();
    context = createContext({ logger });
    const completed: Array<RoutekitEvents["route-source-completed"]> = [];
    context.events.on("route-source-completed", (event) => completed.push(event));
    await context.addRoutes((r) =>
      r
        .from(of(1, 2, 3))
        .routeId("sync")
        .to("mock:sync"),
    );
    await context.start();

    const mock = context.endpoint("mock:sync").expectedMessageCount(3);
    await mock.assertIsSatisfied(2000);
    expect(mock.received.map((exchange) => exchange.body)).toEqual([1, 2, 3]);
    expect(completed).toEqual([{ routeId: "sync", uri: expect.stringMatching(/^observable:/) }]);
    expect(context.routes()[0]?.state).toBe("started");
    expect(logger.lines).toContainEqual(
      expect.stringMatching(
        /^info Route 'sync' from\(observable:source-\d+\): the Observable completed; the route stays started, idle$/,
      ),
    );
  });

  it("reports an error of the source (event and log line) and keeps the route started", async () => {
    const logger = collectingLogger();
    context = createContext({ logger });
    const failed: Array<RoutekitEvents["route-source-failed"]> = [];
    context.events.on("route-source-failed", (event) => failed.push(event));
    const { subject, source } = countedSource<string>();
    await context.addRoutes((r) => r.from(source).routeId("fails").to("mock:fails"));
    await context.start();

    subject.next("before");
    subject.error(new Error("feed broke"));
    subject.next("after");

    const mock = context.endpoint("mock:fails");
    await tick(20);
    expect(mock.received.map((exchange) => exchange.body)).toEqual(["before"]);
    expect(failed).toHaveLength(1);
    expect(failed[0]?.routeId).toBe("fails");
    expect(failed[0]?.error.message).toBe("feed broke");
    expect(context.routes()[0]?.state).toBe("started");
    expect(logger.lines).toContainEqual(
      expect.stringMatching(/^error Route 'fails' .*the Observable failed: feed broke/),
    );
  });

  it("unsubscribes when the route stops (the source's teardown runs) and subscribes again on restart", async () => {
    context = createContext();
    const { subject, counts, source } = countedSource<number>();
    await context.addRoutes((r) => r.from(source).routeId("again").to("mock:again"));
    await context.start();
    expect(counts).toEqual({ subscribed: 1, tornDown: 0 });

    await context.stopRoute("again");
    expect(counts).toEqual({ subscribed: 1, tornDown: 1 });
    expect(subject.observed).toBe(false);
    subject.next(1);

    await context.startRoute("again");
    expect(counts).toEqual({ subscribed: 2, tornDown: 1 });
    subject.next(2);
    const mock = context.endpoint("mock:again").expectedMessageCount(1);
    await mock.assertIsSatisfied(2000);
    expect(mock.received.map((exchange) => exchange.body)).toEqual([2]);

    await context.stop();
    expect(counts).toEqual({ subscribed: 2, tornDown: 2 });
    expect(subject.observed).toBe(false);
  });

  it("processes the values of a new subscription after a stop that waited for an exchange in flight", async () => {
    context = createContext();
    const { subject, source } = countedSource<number>();
    const releases: Array<() => void> = [];
    await context.addRoutes((r) =>
      r
        .from(source)
        .routeId("held")
        .process(() => new Promise<void>((resolve) => releases.push(resolve)))
        .to("mock:held"),
    );
    await context.start();
    subject.next(1);
    await tick();

    const stopped = context.stopRoute("held", { timeoutMs: 2000 });
    releases[0]?.();
    await stopped;
    await context.startRoute("held");
    subject.next(2);
    await tick();
    releases[1]?.();

    const mock = context.endpoint("mock:held").expectedMessageCount(2);
    await mock.assertIsSatisfied(2000);
    expect(mock.received.map((exchange) => exchange.body)).toEqual([1, 2]);
  });

  it("fails a value that finds the buffer full, and the values still waiting at stop, through error handling", async () => {
    context = createContext();
    const { subject, source } = countedSource<number>();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await context.addRoutes((r) => {
      r.errorHandler({ deadLetterUri: "mock:dead" });
      r.from(source, { bufferSize: 2 })
        .routeId("slow")
        .process(() => held)
        .to("mock:slow");
    });
    await context.start();
    const dead = context.endpoint("mock:dead");

    for (const n of [1, 2, 3, 4, 5]) subject.next(n);
    await tick(10);
    // 1 is being processed, 2 and 3 wait, 4 and 5 find the buffer full.
    expect(dead.received.map((exchange) => exchange.body)).toEqual([4, 5]);
    const caught = dead.received[0]?.properties[EXCEPTION_CAUGHT] as Error;
    expect(caught.message).toMatch(
      /^Route 'slow' from\(observable:source-\d+\?bufferSize=2\): 2 values were already waiting \(bufferSize\); this one was not processed$/,
    );

    const stopped = context.stopRoute("slow", { timeoutMs: 2000 });
    release();
    await stopped;
    expect(context.endpoint("mock:slow").received.map((exchange) => exchange.body)).toEqual([1]);
    expect(dead.received.map((exchange) => exchange.body)).toEqual([4, 5, 2, 3]);
    expect((dead.received[2]?.properties[EXCEPTION_CAUGHT] as Error | undefined)?.message).toMatch(
      /stopped before this value was processed$/,
    );
  });

  it("refuses what is neither a URI nor an Observable, a bad bufferSize, and an observable: URI without one", async () => {
    context = createContext();
    await expect(context.addRoutes((r) => r.from(42 as unknown as string).to("mock:x"))).rejects.toThrow(
      /from\(\) expects an endpoint URI like 'direct:orders' or an Observable \(found number 42\)/,
    );
    await expect(context.addRoutes((r) => r.from(of(1), { bufferSize: 0 }).to("mock:x"))).rejects.toThrow(
      /bufferSize.*1/,
    );
    await context.addRoutes((r) => r.from("observable:nothing").routeId("bare").to("mock:x"));
    await expect(context.start()).rejects.toThrow(
      /Route 'bare' from\(observable:nothing\): no Observable was given; write from\(observable\$\) in the route/,
    );
  });
});
