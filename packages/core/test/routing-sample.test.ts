import { createContext, type RouteContext, RoutekitError } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

let context: RouteContext;
afterEach(async () => {
  await context?.stop();
});

describe("sample", () => {
  it("lets the Nth, 2Nth, ... exchange through and stops the others, completed", async () => {
    context = createContext({ logLevel: "off" });
    const completed: unknown[] = [];
    context.events.on("exchange-completed", (event) => completed.push(event.exchange.body));
    await context.addRoutes((r) => r.from("direct:readings").sample(3).setBody("${body}!").to("mock:kept"));
    await context.start();
    const replies: unknown[] = [];
    for (let reading = 1; reading <= 7; reading++)
      replies.push(await context.request("direct:readings", reading));
    expect(context.endpoint("mock:kept").receivedBodies).toEqual(["3!", "6!"]);
    expect(replies).toEqual([1, 2, "3!", 4, 5, "6!", 7]);
    expect(completed).toHaveLength(7);
  });

  it("stops a sampled-out exchange for its caller too, as stop() does", async () => {
    context = createContext({ logLevel: "off" });
    await context.addRoutes((r) => {
      r.from("direct:caller").to("direct:sampled").to("mock:after-call");
      r.from("direct:sampled").sample(2);
    });
    await context.start();
    for (let index = 0; index < 4; index++) await context.request("direct:caller", index);
    expect(context.endpoint("mock:after-call").receivedBodies).toEqual([1, 3]);
  });

  it("counts per route: two routes with sample(2) each let their own second exchange through", async () => {
    context = createContext({ logLevel: "off" });
    await context.addRoutes((r) => {
      r.from("direct:a").sample(2).to("mock:a");
      r.from("direct:b").sample(2).to("mock:b");
    });
    await context.start();
    await context.request("direct:a", "a1");
    await context.request("direct:b", "b1");
    await context.request("direct:a", "a2");
    await context.request("direct:b", "b2");
    expect(context.endpoint("mock:a").receivedBodies).toEqual(["a2"]);
    expect(context.endpoint("mock:b").receivedBodies).toEqual(["b2"]);
  });

  it("sample(1) lets every exchange through", async () => {
    context = createContext({ logLevel: "off" });
    await context.addRoutes((r) => r.from("direct:all").sample(1).to("mock:all"));
    await context.start();
    for (let index = 0; index < 3; index++) await context.request("direct:all", index);
    expect(context.endpoint("mock:all").receivedBodies).toEqual([0, 1, 2]);
  });
});

describe("sample's argument", () => {
  it("refuses anything but a whole number >= 1 when the route is added, naming route and verb", async () => {
    context = createContext({ logLevel: "off" });
    for (const everyN of [0, -2, 1.5, "10", Number.NaN, undefined]) {
      const adding = context.addRoutes((r) =>
        r
          .from("direct:bad")
          .routeId("bad")
          .sample(everyN as number),
      );
      await expect(adding).rejects.toThrow(RoutekitError);
      await expect(adding).rejects.toThrow(/Route 'bad': sample\(\) expects a whole number >= 1, found /);
    }
    await expect(
      context.addRoutes((r) =>
        r
          .from("direct:x")
          .routeId("x")
          .sample("10" as never),
      ),
    ).rejects.toThrow('found string "10"');
    expect([...context.routes()]).toEqual([]);
  });

  it("is described like any step: its option, no blocks", async () => {
    context = createContext({ logLevel: "off" });
    await context.addRoutes((r) => r.from("direct:described").routeId("described").sample(5).to("mock:x"));
    const [route] = context.describe().routes;
    expect(route?.steps.map((step) => [step.path, step.options, step.blocks])).toEqual([
      ["#1 sample", { everyN: 5 }, []],
      ["#2 to(mock:x)", { uri: "mock:x" }, []],
    ]);
  });
});
