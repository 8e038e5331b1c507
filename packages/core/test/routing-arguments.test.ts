import { createContext, type RouteContext, type RouteDsl, RoutekitError } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

/** Adds a route `bad` whose only step is `build(route)`; returns the rejection. */
async function refusal(build: (route: RouteDsl<unknown>) => unknown): Promise<RoutekitError> {
  context = createContext();
  try {
    await context.addRoutes((r) => {
      build(r.from("direct:in").routeId("bad"));
    });
  } catch (error) {
    expect(error).toBeInstanceOf(RoutekitError);
    return error as RoutekitError;
  }
  throw new Error("the route was accepted");
}

type Verb = "split" | "aggregate" | "multicast" | "recipientList" | "wireTap" | "enrich" | "loop" | "delay";
/** The route with untyped verbs, to pass what TypeScript would refuse. */
const loose = (route: RouteDsl<unknown>) => route as unknown as Record<Verb, (...args: unknown[]) => unknown>;
const step = (route: RouteDsl<unknown>) => route;

describe("bad arguments are refused when the route is added, naming the route and the verb", () => {
  it.each([
    [
      "split without expression",
      (r: RouteDsl<unknown>) => loose(r).split(42, step),
      "split() expects an expression yielding the parts (a string or a function of the exchange), found number 42",
    ],
    [
      "split without step",
      (r: RouteDsl<unknown>) => loose(r).split("${body}", "mock:x"),
      'split() expects the step each part runs as a callback like (route) => route.to("mock:x"), found string "mock:x"',
    ],
    [
      "split options not an object",
      (r: RouteDsl<unknown>) => loose(r).split("${body}", step, 5),
      "split() expects an options object, found number 5",
    ],
    [
      "split unknown option",
      (r: RouteDsl<unknown>) => loose(r).split("${body}", step, { parralel: 2 }),
      "split() has no option 'parralel' (did you mean parallel?); options: aggregate, parallel, stopOnError",
    ],
    [
      "split parallel 0",
      (r: RouteDsl<unknown>) => loose(r).split("${body}", step, { parallel: 0 }),
      "split() option 'parallel' must be true, false or a positive integer, found number 0",
    ],
    [
      "split parallel text",
      (r: RouteDsl<unknown>) => loose(r).split("${body}", step, { parallel: "2" }),
      "option 'parallel' must be true, false or a positive integer, found string \"2\"",
    ],
    [
      "split stopOnError text",
      (r: RouteDsl<unknown>) => loose(r).split("${body}", step, { stopOnError: "yes" }),
      "split() option 'stopOnError' must be true or false, found string \"yes\"",
    ],
    [
      "split aggregate not a function",
      (r: RouteDsl<unknown>) => loose(r).split("${body}", step, { aggregate: {} }),
      "split() option 'aggregate' must be a function, found an object",
    ],
    [
      "aggregate without correlation",
      (r: RouteDsl<unknown>) => loose(r).aggregate(undefined, {}),
      "aggregate() expects a correlation expression (a string or a function of the exchange), found undefined",
    ],
    [
      "aggregate without options",
      (r: RouteDsl<unknown>) => loose(r).aggregate("${header.k}"),
      "aggregate() expects options with a strategy and a completion condition",
    ],
    [
      "aggregate without strategy",
      (r: RouteDsl<unknown>) => loose(r).aggregate("${header.k}", { completionSize: 2 }),
      "aggregate() option 'strategy' must be a function (previous, next) => exchange, found undefined",
    ],
    [
      "aggregate size 0",
      (r: RouteDsl<unknown>) => loose(r).aggregate("k", { strategy: step, completionSize: 0 }),
      "aggregate() option 'completionSize' must be a positive integer, found number 0",
    ],
    [
      "aggregate size 2.5",
      (r: RouteDsl<unknown>) => loose(r).aggregate("k", { strategy: step, completionSize: 2.5 }),
      "option 'completionSize' must be a positive integer, found number 2.5",
    ],
    [
      "aggregate negative timeout",
      (r: RouteDsl<unknown>) => loose(r).aggregate("k", { strategy: step, completionTimeout: -1 }),
      "aggregate() option 'completionTimeout' must be a positive number of milliseconds, found number -1",
    ],
    [
      "aggregate interval text",
      (r: RouteDsl<unknown>) => loose(r).aggregate("k", { strategy: step, completionInterval: "1s" }),
      "option 'completionInterval' must be a positive number of milliseconds, found string \"1s\"",
    ],
    [
      "aggregate predicate number",
      (r: RouteDsl<unknown>) => loose(r).aggregate("k", { strategy: step, completionPredicate: 3 }),
      "aggregate() expects option 'completionPredicate' to be a predicate (a string or a function of the exchange), found number 3",
    ],
    [
      "aggregate no completion",
      (r: RouteDsl<unknown>) => loose(r).aggregate("k", { strategy: step }),
      "aggregate() needs a completion condition: completionSize, completionTimeout, completionInterval or completionPredicate",
    ],
    [
      "aggregate timeout and interval",
      (r: RouteDsl<unknown>) =>
        loose(r).aggregate("k", { strategy: step, completionTimeout: 5, completionInterval: 5 }),
      "aggregate() takes completionTimeout or completionInterval, not both",
    ],
    [
      "aggregate eager without predicate",
      (r: RouteDsl<unknown>) =>
        loose(r).aggregate("k", { strategy: step, completionSize: 2, eagerCheckCompletion: true }),
      "aggregate() has eagerCheckCompletion without a completionPredicate to check",
    ],
    [
      "aggregate eager not boolean",
      (r: RouteDsl<unknown>) =>
        loose(r).aggregate("k", { strategy: step, completionSize: 2, eagerCheckCompletion: 1 }),
      "option 'eagerCheckCompletion' must be true or false, found number 1",
    ],
    [
      "aggregate bad repository",
      (r: RouteDsl<unknown>) =>
        loose(r).aggregate("k", { strategy: step, completionSize: 2, repository: { get() {} } }),
      "aggregate() option 'repository' must be an AggregationRepository { get, put, remove, keys }; an object lacks put, remove, keys",
    ],
    [
      "aggregate misspelt option",
      (r: RouteDsl<unknown>) => loose(r).aggregate("k", { strategy: step, completionSise: 2 }),
      "aggregate() has no option 'completionSise' (did you mean completionSize?)",
    ],
    [
      "multicast not an array",
      (r: RouteDsl<unknown>) => loose(r).multicast("mock:a,mock:b"),
      'multicast() expects a non-empty array of endpoint URIs, found string "mock:a,mock:b"',
    ],
    [
      "multicast empty",
      (r: RouteDsl<unknown>) => loose(r).multicast([]),
      "multicast() expects a non-empty array of endpoint URIs, found an array of 0",
    ],
    [
      "multicast bad item",
      (r: RouteDsl<unknown>) => loose(r).multicast(["mock:a", 3]),
      "multicast() expects endpoint URIs; item 1 is number 3",
    ],
    [
      "multicast unknown option",
      (r: RouteDsl<unknown>) => loose(r).multicast(["mock:a"], { strategy: step }),
      "multicast() has no option 'strategy'; options: parallel, aggregate, stopOnError",
    ],
    [
      "multicast parallel negative",
      (r: RouteDsl<unknown>) => loose(r).multicast(["mock:a"], { parallel: -1 }),
      "multicast() option 'parallel' must be true, false or a positive integer, found number -1",
    ],
    [
      "recipientList without expression",
      (r: RouteDsl<unknown>) => loose(r).recipientList(["mock:a"]),
      "recipientList() expects an expression yielding endpoint URIs (a string or a function of the exchange), found an array of 1",
    ],
    [
      "recipientList empty delimiter",
      (r: RouteDsl<unknown>) => loose(r).recipientList("${header.to}", { delimiter: "" }),
      "recipientList() option 'delimiter' must be a non-empty string, found string \"\"",
    ],
    [
      "recipientList unknown option",
      (r: RouteDsl<unknown>) => loose(r).recipientList("${header.to}", { delimeter: ";" }),
      "recipientList() has no option 'delimeter' (did you mean delimiter?)",
    ],
    [
      "wireTap without uri",
      (r: RouteDsl<unknown>) => loose(r).wireTap(),
      "wireTap() expects an endpoint URI (found undefined)",
    ],
    [
      "wireTap unknown scheme",
      (r: RouteDsl<unknown>) => loose(r).wireTap("audit:x"),
      "Endpoint 'audit:x': no component for scheme 'audit'",
    ],
    [
      "enrich without uri",
      (r: RouteDsl<unknown>) => loose(r).enrich(7),
      "enrich() expects an endpoint URI (found 7)",
    ],
    [
      "enrich aggregate not a function",
      (r: RouteDsl<unknown>) => loose(r).enrich("mock:a", "merge"),
      'enrich() expects an aggregate function (original, resource) => exchange as second argument, found string "merge"',
    ],
    [
      "enrich unknown option on the endpoint",
      (r: RouteDsl<unknown>) => loose(r).enrich("seda:x?sise=5"),
      "sise",
    ],
    [
      "loop negative count",
      (r: RouteDsl<unknown>) => loose(r).loop(-1, step),
      "loop() expects a count (an integer >= 0), found number -1",
    ],
    [
      "loop fractional count",
      (r: RouteDsl<unknown>) => loose(r).loop(1.5, step),
      "loop() expects a count (an integer >= 0), found number 1.5",
    ],
    [
      "loop object condition",
      (r: RouteDsl<unknown>) => loose(r).loop({ times: 2 }, step),
      "loop() expects a count, an expression or a predicate (a string or a function of the exchange), found an object",
    ],
    [
      "loop without step",
      (r: RouteDsl<unknown>) => loose(r).loop(2),
      "loop() expects the step to repeat as a callback",
    ],
    [
      "loop maxIterations 0",
      (r: RouteDsl<unknown>) => loose(r).loop(2, step, { maxIterations: 0 }),
      "loop() option 'maxIterations' must be a positive integer or Infinity, found number 0",
    ],
    [
      "loop unknown option",
      (r: RouteDsl<unknown>) => loose(r).loop(2, step, { max: 3 }),
      "loop() has no option 'max'",
    ],
    [
      "delay negative",
      (r: RouteDsl<unknown>) => loose(r).delay(-5),
      "delay() expects milliseconds >= 0, found number -5",
    ],
    [
      "delay NaN",
      (r: RouteDsl<unknown>) => loose(r).delay(Number.NaN),
      "delay() expects milliseconds >= 0, found number NaN",
    ],
    [
      "delay object",
      (r: RouteDsl<unknown>) => loose(r).delay({ ms: 5 }),
      "delay() expects milliseconds or an expression yielding them (a string or a function of the exchange), found an object",
    ],
  ])("%s", async (_name, build, message) => {
    const error = await refusal(build);
    expect(error.message).toContain(message);
    if (!message.startsWith("Endpoint") && message !== "sise") {
      expect(error.code).toBe("ROUTE_INVALID");
      expect(error.message.startsWith("Route 'bad': ")).toBe(true);
    }
  });

  it("a malformed expression fails when the route is added", async () => {
    const error = await refusal((r) => r.split("${body.", step));
    expect(error.code).toBe("EXPRESSION_INVALID");
    const loopError = await refusal((r) => r.loop("${header.n} <", step));
    expect(loopError.code).toBe("EXPRESSION_INVALID");
  });
});
