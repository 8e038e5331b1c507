import { createContext, type Exchange } from "@routekit/core";

/** What the pipeline scenarios observed: the same in every process, whichever runner ran them. */
export interface ScenarioOutcome {
  /** Five steps, step 3 throwing twice, two redeliveries allowed: the steps in the order they ran. */
  redelivered: number[];
  /** The same route whose step 3 keeps failing: the caller's error message. */
  exhausted: string;
  /** Steps 1–3 with an asynchronous step 2 and step events observed: the events seen. */
  observed: string[];
  /** A one-step route whose step throws on its first attempt: the attempts, then the reply. */
  single: [number, string];
  /** The same one-step route leaving an error on every attempt: the caller's error message. */
  singleExhausted: string;
  /** A route of `longSteps` steps, each adding one: the reply to 0. */
  long: number;
  /** The same long route with its step 140 leaving an error once, one redelivery: the reply to 0. */
  longRedelivered: number;
}

/**
 * Runs the scenarios in a context of their own and stops it. With `warmRuns`, each route first
 * runs that many messages that fail nowhere, so that a pipeline which gets a generated runner
 * once it is hot has it when the scenarios run.
 */
export async function runPipelineScenarios(longSteps: number, warmRuns = 0): Promise<ScenarioOutcome> {
  const context = createContext({ logLevel: "off" });
  const ran: number[] = [];
  let failures = 0;
  let failOnce = true;
  let singleAttempts = (): number => 0;
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
    let attempts = 0;
    r.from("direct:single")
      .routeId("single")
      .process((exchange: Exchange) => {
        if (exchange.headers.warming === true) return;
        attempts++;
        if (exchange.body === "always") exchange.error = new Error(`attempt ${attempts} left an error`);
        else if (attempts === 1) throw new Error("first attempt threw");
        else exchange.body = `done after ${attempts}`;
      });
    singleAttempts = () => attempts;
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
    for (const uri of ["direct:five", "direct:observed", "direct:single", "direct:long"]) {
      for (let run = 0; run < warmRuns; run++) await context.request(uri, 0, { warming: true });
    }
    ran.length = 0;
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
    const singleReply = await context.request<string>("direct:single", "once");
    const single: [number, string] = [singleAttempts(), singleReply];
    let singleExhausted = "";
    await context.request("direct:single", "always").catch((error: Error) => {
      singleExhausted = error.message;
    });
    const long = await context.request<number>("direct:long", 0);
    const longRedelivered = await context.request<number>("direct:long", 0, { failOnce: true });
    return { redelivered, exhausted, observed, single, singleExhausted, long, longRedelivered };
  } finally {
    await context.stop();
  }
}
