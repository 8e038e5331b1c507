import {
  createContext,
  type RouteBuilder,
  type RouteContext,
  type RouteDsl,
  RoutekitError,
} from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

async function addFailure(configure: (builder: RouteBuilder) => void): Promise<RoutekitError> {
  context = createContext();
  const error = await context.addRoutes(configure).then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(RoutekitError);
  expect((error as RoutekitError).code).toBe("ROUTE_INVALID");
  return error as RoutekitError;
}

const onRoute = (configure: (route: RouteDsl) => unknown) => (builder: RouteBuilder) => {
  configure(builder.from("direct:in").routeId("orders"));
};

describe("onException and errorHandler options are validated when the route is added", () => {
  it.each([
    [
      { maximumRedeliveries: -2 },
      "option 'maximumRedeliveries' must be an integer >= 0 (or -1) (found number -2)",
    ],
    [
      { maximumRedeliveries: 1.5 },
      "option 'maximumRedeliveries' must be an integer >= 0 (or -1) (found number 1.5)",
    ],
    [{ redeliveryDelay: -100 }, "option 'redeliveryDelay' must be a number >= 0 (found number -100)"],
    [{ redeliveryDelay: "100" }, "option 'redeliveryDelay' must be a number >= 0 (found string \"100\")"],
    [{ backOffMultiplier: 0.5 }, "option 'backOffMultiplier' must be a number >= 1 (found number 0.5)"],
    [
      { maximumRedeliveryDelay: Number.NaN },
      "option 'maximumRedeliveryDelay' must be a number >= 0 (found number NaN)",
    ],
    [
      { handled: "yes please" as unknown as boolean, continued: 1 },
      "option 'continued' must be true, false or a predicate",
    ],
    [{ useOriginalMessage: "true" }, "option 'useOriginalMessage' must be true or false"],
    [{ retryWhile: 3 }, "option 'retryWhile' must be a predicate"],
    [{ step: "to mock:x" }, "option 'step' must be a block callback"],
    [
      { maxRedeliveries: 3 },
      "onException() has no option 'maxRedeliveries' (did you mean maximumRedeliveries?)",
    ],
  ])("route-local onException(%o) fails: %s", async (options, message) => {
    const error = await addFailure(onRoute((route) => route.onException(Error, options as never)));
    expect(error.message).toContain("Route 'orders': onException()");
    expect(error.message).toContain(message);
  });

  it("handled and continued both true is refused with both names", async () => {
    const error = await addFailure(
      onRoute((route) => route.onException(Error, { handled: true, continued: true })),
    );
    expect(error.message).toBe(
      "Route 'orders': onException() options 'handled' and 'continued' are both true: choose one " +
        "(handled stops the route and replies without the error; continued resumes at the next step)",
    );
  });

  it("builder-wide onException is validated too and says so", async () => {
    const error = await addFailure((builder) => {
      builder.onException(Error, { redeliveryDelay: -1 });
    });
    expect(error.message).toBe(
      "RouteBuilder: onException() option 'redeliveryDelay' must be a number >= 0 (found number -1)",
    );
  });

  it("onException needs Error classes", async () => {
    expect((await addFailure(onRoute((route) => route.onException([], {})))).message).toContain(
      "Route 'orders': onException() expects an Error class or a non-empty array of Error classes",
    );
    expect((await addFailure(onRoute((route) => route.onException("TypeError" as never)))).message).toContain(
      'found string "TypeError"',
    );
    expect((await addFailure(onRoute((route) => route.onException((() => 1) as never)))).message).toContain(
      "(not an Error class)",
    );
  });

  it("errorHandler options: dead letter URI, redelivery, unknown names", async () => {
    expect((await addFailure(onRoute((route) => route.errorHandler({ deadLetterUri: "" })))).message).toBe(
      "Route 'orders': errorHandler() option 'deadLetterUri' must be an endpoint URI like 'seda:dead' or 'mock:dead' (found string \"\")",
    );
    expect(
      (
        await addFailure(
          onRoute((route) => route.errorHandler({ deadLetterUri: "mock:d", redeliveryDelay: -5 })),
        )
      ).message,
    ).toContain("option 'redeliveryDelay' must be a number >= 0");
    expect(
      (await addFailure(onRoute((route) => route.errorHandler({ deadLetterURI: "mock:d" } as never))))
        .message,
    ).toContain("errorHandler() has no option 'deadLetterURI' (did you mean deadLetterUri?)");
    expect((await addFailure((builder) => builder.errorHandler(undefined as never))).message).toContain(
      "RouteBuilder: errorHandler() expects options",
    );
  });

  it("route-local error handling belongs on the route itself, not inside a block", async () => {
    const error = await addFailure(
      onRoute((route) => route.doTry((t) => t.onException(Error, { handled: true }), { finally: (f) => f })),
    );
    expect(error.message).toContain(
      "Route 'orders': onException() belongs on the route itself, not inside a block",
    );
  });

  it("a malformed predicate fails when the route is added", async () => {
    context = createContext();
    await expect(
      context.addRoutes((builder) => {
        builder.from("direct:in").onException(Error, { handled: "${header.a ==}" });
      }),
    ).rejects.toThrow(/header\.a ==/);
  });
});
