import { createContext, type Exchange } from "@routekit/core";

/** What the pipeline scenarios observed: the same in every process, whichever runner ran them. */
export interface ScenarioOutcome {
  /** Five steps, step 3 throwing twice, two redeliveries allowed: the steps in the order they ran. */
  redelivered: number[];
  /** The same route whose step 3 keeps failing: the caller's error message. */
  exhausted: string;
  /** Steps 1–3 with an asynchronous step 2 and step events observed: the events seen. */
  observed: string[];
  /** A route of `longSteps` steps, each adding one: the reply to 0. */
  long: number;
  /** The same long route with its step 140 leaving an error once, one redelivery: the reply to 0. */
  longRedelivered: number;
}

/** Runs the scenarios in a context of their own and stops it. */
export async function runPipelineScenarios(longSteps: number): Promise<ScenarioOutcome> {
  const context = createContext({ logLevel: "off" });
  const ran: number[] = [];
  let failures = 0;
  let failOnce = true;
  await context.addRoutes((r) => {
    r.onException(Error, { maximumRedeliveries: 2, redeliveryDelay: 0 });
    const five = r.from("direct:five").routeId("five");
    for (let position = 1; position <= 5; position++) {
      five.process((exchange: Exchange) => {
        ran.push(position);
        if (position === 3 && failures < (exchange.headers.failures as number)) {
          failures++;
          throw new Error(`step ${position} threw`);
        }
      });
    }
    r.from("direct:observed")
      .routeId("observed")
      .process(() => undefined)
      .process(async () => {
        await new Promise((resolve) => setImmediate(resolve));
      })
      .process(() => undefined);
    const long = r.from("direct:long").routeId("long");
    for (let position = 1; position <= longSteps; position++) {
      long.process((exchange: Exchange) => {
        if (position === 140 && exchange.headers.failOnce === true && failOnce) {
          failOnce = false;
          exchange.error = new Error("step 140 left an error");
          return;
        }
        exchange.body = (exchange.body as number) + 1;
      });
    }
  });
  await context.start();
  try {
    await context.request("direct:five", 0, { failures: 2 });
    const redelivered = [...ran];
    failures = 0;
    let exhausted = "";
    await context.request("direct:five", 0, { failures: 10 }).catch((error: Error) => {
      exhausted = error.message;
    });
    const observed: string[] = [];
    const listen = (event: { stepPath: string }, kind: string) => observed.push(`${kind} ${event.stepPath}`);
    const unsubscribe = [
      context.events.on("step-started", (event) => listen(event, "started")),
      context.events.on("step-completed", (event) => listen(event, "completed")),
    ];
    await context.request("direct:observed", 0);
    for (const off of unsubscribe) off();
    const long = await context.request<number>("direct:long", 0);
    const longRedelivered = await context.request<number>("direct:long", 0, { failOnce: true });
    return { redelivered, exhausted, observed, long, longRedelivered };
  } finally {
    await context.stop();
  }
}
