import { createContext, defineStep, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";
import { shout } from "./support/shout-step.js";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

describe("defineStep", () => {
  it("adds a typed verb to the DSL from another package", async () => {
    context = createContext();
    await context.addRoutes((r) => {
      r.from("direct:a").shout({ suffix: "?" }).to("mock:a");
      r.from("direct:b").shoutLater(5).to("mock:b");
    });
    await context.start();
    expect(await context.request("direct:a", "hey")).toBe("HEY?");
    expect(await context.request("direct:b", "hey")).toBe("HEY (after 5 ms)");
  });

  it("returns the factory, usable as a plain processor", async () => {
    context = createContext();
    await context.addRoutes((r) => r.from("direct:p").process(shout()));
    await context.start();
    expect(await context.request("direct:p", "plain")).toBe("PLAIN!");
  });

  it("refuses a verb name that exists already", () => {
    expect(() => defineStep("shout", () => () => undefined)).toThrow("DSL verb 'shout' is already defined");
  });

  it("a step factory that throws fails when the route is added", async () => {
    const broken = defineStep("brokenStep", (limit: number) => {
      if (limit < 0) throw new RangeError(`limit must be >= 0 (found ${limit})`);
      return () => undefined;
    });
    expect(typeof broken).toBe("function");
    context = createContext();
    await expect(
      context.addRoutes((r) =>
        (r.from("direct:x") as unknown as { brokenStep(limit: number): unknown }).brokenStep(-1),
      ),
    ).rejects.toThrow("limit must be >= 0 (found -1)");
  });
});
