import { createContext, type Exchange, type RouteContext, RoutekitError } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

// A stop that runs out of time accounts for every message a seda queue accepted: it completed,
// or its producer (InOut), or the route's dead letter channel (InOnly), received an error saying
// it was dropped. Counts only: no timing assertion.

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop({ timeoutMs: 1000 }).catch(() => undefined);
  context = undefined;
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Settles `work`, or fails the test naming what never settled. */
async function settledOrNamed<T>(
  work: Promise<PromiseSettledResult<T>>[],
  what: string,
): Promise<PromiseSettledResult<T>[]> {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} never settled`)), 10_000);
  });
  try {
    return await Promise.race([Promise.all(work), stuck]);
  } finally {
    clearTimeout(timer);
  }
}

type Behaviour = "ignores" | "honours";

async function startWith(behaviour: Behaviour, completed: number[]): Promise<RouteContext> {
  const created = createContext({ logLevel: "off" });
  context = created;
  await created.addRoutes((r) => {
    r.errorHandler({ deadLetterUri: "mock:dead" });
    r.from<number>("seda:work?size=10")
      .routeId("work")
      .process(async (exchange) => {
        if (behaviour === "ignores") await pause(30);
        else
          await new Promise<void>((resolve, reject) => {
            const timer = setTimeout(resolve, 30);
            exchange.signal.addEventListener(
              "abort",
              () => {
                clearTimeout(timer);
                reject(exchange.signal.reason);
              },
              { once: true },
            );
          });
        completed.push(exchange.body);
      });
  });
  await created.start();
  return created;
}

/** The outcome, recorded as soon as the promise settles (so no rejection goes unhandled meanwhile). */
function outcome<T>(work: Promise<T>): Promise<PromiseSettledResult<T>> {
  return work.then(
    (value) => ({ status: "fulfilled", value }),
    (reason: unknown) => ({ status: "rejected", reason }),
  );
}

const droppedCode = (error: unknown): boolean =>
  error instanceof RoutekitError &&
  error.code === "EXCHANGE_DROPPED" &&
  /dropped|not accepted/.test(error.message);

describe.each<Behaviour>(["ignores", "honours"])(
  "stop past its timeout, a route that %s the abort",
  (behaviour) => {
    it("accounts for every message: completed, dead-lettered, or its producer got an error", {
      timeout: 30_000,
    }, async () => {
      const completed: number[] = [];
      const target = await startWith(behaviour, completed);
      const sends: Promise<PromiseSettledResult<void>>[] = [];
      const requests: Promise<PromiseSettledResult<Exchange>>[] = [];
      for (let index = 0; index < 40; index++) sends.push(outcome(target.send("seda:work", index)));
      for (let index = 40; index < 50; index++)
        requests.push(outcome(target.requestExchange("seda:work", { body: index })));
      await pause(20);

      const stopError = await target.stop({ timeoutMs: 100 }).then(
        () => undefined,
        (error: unknown) => error,
      );
      const sent = await settledOrNamed(sends, "a send() waiting for room");
      const replies = await settledOrNamed(requests, "an InOut request to seda");

      expect(stopError).toBeInstanceOf(RoutekitError);
      const message = (stopError as Error).message;
      expect(message).toMatch(/route 'work' \(1 in flight\)/);
      expect(message).toMatch(
        /seda:work: \d+ queued messages? dropped, \d+ producers? waiting for room rejected/,
      );

      const dead = target.endpoint("mock:dead").received;
      const deadBodies = dead.map((exchange) => exchange.body as number);
      const rejectedSends = sent.filter((result) => result.status === "rejected");
      for (const result of rejectedSends)
        expect(droppedCode((result as PromiseRejectedResult).reason)).toBe(true);
      const acceptedSends = 40 - rejectedSends.length;
      // Every accepted InOnly message completed or reached the dead letter channel, exactly once.
      const inOnlyOutcomes = [...completed, ...deadBodies].filter((body) => body < 40).sort((a, b) => a - b);
      expect(inOnlyOutcomes).toHaveLength(acceptedSends);
      expect(new Set(inOnlyOutcomes).size).toBe(acceptedSends);
      for (const exchange of dead) {
        expect(String(exchange.headers["routekit.exception"])).toMatch(
          /dropped at shutdown|did not stop within/,
        );
      }
      // Every InOut producer got its reply or an error.
      for (const result of replies) {
        expect(result.status).toBe("fulfilled");
        const exchange = (result as PromiseFulfilledResult<Exchange>).value;
        if (exchange.error === undefined) expect(completed).toContain(exchange.body);
        else expect(exchange.error.message).toMatch(/dropped at shutdown|did not stop within|not accepted/);
      }
      expect(rejectedSends.length + deadBodies.length).toBeGreaterThan(0);
    });
  },
);

describe("seda after a stop that gave up", () => {
  it("refuses new messages at once with a clear error", async () => {
    const completed: number[] = [];
    const target = await startWith("ignores", completed);
    for (let index = 0; index < 5; index++) await target.send("seda:work", index);
    const stopping = target.stop({ timeoutMs: 50 }).catch(() => undefined);
    await pause(80);
    const late = target.createExchange({ body: 99 });
    const error = await Promise.resolve()
      .then(() => target.endpoint("seda:work").send(late))
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(droppedCode(error)).toBe(true);
    await stopping;
  });

  it("still drains everything when the stop has time (graceful stop loses nothing)", async () => {
    const completed: number[] = [];
    const target = await startWith("honours", completed);
    const sends: Promise<void>[] = [];
    for (let index = 0; index < 20; index++) sends.push(target.send("seda:work", index));
    await target.stop({ timeoutMs: 10_000 });
    await Promise.all(sends);
    expect(completed.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index));
    expect(target.endpoint("mock:dead").received).toHaveLength(0);
  });

  it("fails an InOut caller whose route never ends, once the grace is over, and names the route", async () => {
    let release: () => void = () => {};
    const target = createContext({ logLevel: "off" });
    context = target;
    await target.addRoutes((r) => {
      r.from("seda:hang")
        .routeId("hang")
        .process(
          () =>
            new Promise<void>((resolve) => {
              release = resolve;
            }),
        );
    });
    await target.start();
    const reply = outcome(target.requestExchange("seda:hang", { body: 1 }));
    await pause(20);
    const stopError = await target.stop({ timeoutMs: 50 }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    const [settled] = await settledOrNamed([reply], "the InOut caller");
    release();
    expect(settled?.status).toBe("fulfilled");
    const exchange = (settled as PromiseFulfilledResult<Exchange>).value;
    expect(droppedCode(exchange.error)).toBe(true);
    expect(exchange.error?.message).toMatch(/still running it when the context's stop gave up/);
    expect(stopError?.message).toMatch(
      /still running after the abort \(left behind\): route 'hang' \(1 in flight\)/,
    );
    expect(stopError?.message).toMatch(/seda:hang: 1 caller waiting for a reply failed/);
  });

  it("accounts for every copy of a publish-subscribe queue", async () => {
    const seen: string[] = [];
    const target = createContext({ logLevel: "off" });
    context = target;
    await target.addRoutes((r) => {
      r.errorHandler({ deadLetterUri: "mock:dead" });
      for (const name of ["first", "second"]) {
        r.from<number>("seda:news?multipleConsumers=true")
          .routeId(name)
          .process(async (exchange) => {
            await pause(30);
            seen.push(`${name}:${exchange.body}`);
          });
      }
    });
    await target.start();
    const sends = Array.from({ length: 8 }, (_, index) =>
      outcome(target.send("seda:news?multipleConsumers=true", index)),
    );
    await pause(10);
    await target.stop({ timeoutMs: 50 }).catch(() => undefined);
    const sent = await settledOrNamed(sends, "a send to a pub-sub queue");
    await pause(100);
    expect(sent.every((result) => result.status === "fulfilled")).toBe(true);
    const dead = target.endpoint("mock:dead").received;
    // Each message reached both routes: processed, or dead-lettered as dropped, once per route.
    expect(seen.length + dead.length).toBe(16);
    expect(dead.length).toBeGreaterThan(0);
    for (const exchange of dead) {
      expect(String(exchange.headers["routekit.exception"])).toMatch(
        /dropped at shutdown|did not stop within/,
      );
    }
  });

  it("rejects stop options that are not a number of milliseconds", async () => {
    const target = await startWith("honours", []);
    await expect(target.stop({ timeoutMs: -1 })).rejects.toThrow(/timeoutMs' expects a finite number/);
    await expect(target.stop({ timeoutMs: Number.NaN })).rejects.toThrow(/found number NaN/);
  });
});
