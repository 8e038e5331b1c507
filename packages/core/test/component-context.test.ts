import {
  type ComponentContext,
  type Consumer,
  createContext,
  defineComponent,
  type Exchange,
  type RouteContext,
  RoutekitError,
} from "@routekit/core";
import type { RouteProcessor } from "@routekit/core/internal";
import { afterEach, describe, expect, it } from "vitest";

// A component written outside core, against the public component context only, takes part in a
// stop the way seda: does: the messages it queued count as pending work (a graceful stop waits
// for them), and a stop that runs out of time hands every queued message to the route's error
// handling and names what it dropped.

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop({ timeoutMs: 1000 }).catch(() => undefined);
  context = undefined;
});

interface Hopper {
  readonly queued: Exchange[];
  processor: RouteProcessor | undefined;
  reject: ((exchange: Exchange, reason: Error) => void | Promise<void>) | undefined;
  busy: boolean;
}

/** `hopper:name` — an in-memory queue between routes, one message at a time, in order. */
function hopperComponent() {
  const hoppers = new Map<string, Hopper>();
  const hopperOf = (name: string, context: ComponentContext): Hopper => {
    const hopper = hoppers.get(name);
    if (hopper !== undefined) return hopper;
    const created: Hopper = { queued: [], processor: undefined, reject: undefined, busy: false };
    hoppers.set(name, created);
    context.addShutdownParticipant({
      aborted(reason) {
        const dropped = created.queued.splice(0);
        for (const exchange of dropped) {
          context.trackPending(-1);
          void created.reject?.(exchange, reason);
        }
        return dropped.length === 0 ? undefined : `hopper:${name}: ${dropped.length} queued messages dropped`;
      },
      abandoned: () => undefined,
    });
    return created;
  };
  const pump = (hopper: Hopper, context: ComponentContext): void => {
    if (hopper.busy || hopper.processor === undefined) return;
    const exchange = hopper.queued.shift();
    if (exchange === undefined) return;
    hopper.busy = true;
    void Promise.resolve(hopper.processor(exchange)).finally(() => {
      hopper.busy = false;
      context.trackPending(-1);
      pump(hopper, context);
    });
  };
  return defineComponent({
    scheme: "hopper",
    options: {},
    createEndpoint(address, context) {
      const hopper = hopperOf(address.path, context);
      return {
        uri: address.uri,
        send(exchange) {
          if (context.shutdownSignal.aborted) {
            throw new RoutekitError("EXCHANGE_DROPPED", `hopper:${address.path} takes no more messages`);
          }
          context.trackPending(1);
          hopper.queued.push(
            context.createExchange({ body: exchange.body, headers: { ...exchange.headers } }),
          );
          pump(hopper, context);
        },
        createConsumer(processor, route): Consumer {
          return {
            internal: true,
            start() {
              hopper.processor = processor;
              hopper.reject = route.reject;
              pump(hopper, context);
            },
            stop() {
              hopper.processor = undefined;
            },
          };
        },
      };
    },
  });
}

describe("the public component context", () => {
  it.each(["seda:work", "hopper:work"])("lets %s drain on a graceful stop: none is lost", async (uri) => {
    context = createContext().addComponent(hopperComponent());
    const processed: number[] = [];
    await context.addRoutes((r) =>
      r.from<number>(uri).process(async (exchange) => {
        await new Promise((resolve) => setTimeout(resolve, 2));
        processed.push(exchange.body);
      }),
    );
    await context.start();
    for (let index = 0; index < 50; index++) await context.send(uri, index);
    expect(processed.length).toBeLessThan(50);
    await context.stop();
    expect(processed).toEqual(Array.from({ length: 50 }, (_, index) => index));
  });

  it("hands what a component still holds at a timed-out stop to the route's dead letter channel", async () => {
    context = createContext().addComponent(hopperComponent());
    const deadLetters: unknown[] = [];
    await context.addRoutes((r) => {
      r.errorHandler({ deadLetterUri: "direct:dead" });
      r.from<number>("hopper:stuck")
        .routeId("stuck")
        .process(
          (exchange) =>
            new Promise<void>((resolve) => exchange.signal.addEventListener("abort", () => resolve())),
        );
      r.from<number>("direct:dead").process((exchange) => {
        deadLetters.push(exchange.body);
      });
    });
    await context.start();
    for (let index = 0; index < 4; index++) await context.send("hopper:stuck", index);
    const error = await context.stop({ timeoutMs: 50 }).catch((caught: unknown) => caught);
    expect((error as Error).message).toContain("hopper:stuck: 3 queued messages dropped");
    expect(deadLetters).toEqual([1, 2, 3]);
  });
});
