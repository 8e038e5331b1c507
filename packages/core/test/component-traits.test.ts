import { type Component, createContext, defineComponent } from "@routekit/core";
import { describe, expect, it } from "vitest";

let made = 0;
const plain = defineComponent({
  scheme: "plain",
  options: {},
  createEndpoint: (address) => {
    made++;
    return { uri: address.uri, send: () => undefined };
  },
}) as unknown as Component;

describe("context.componentTraits", () => {
  it("answers what a component declares, without making the endpoint", () => {
    const context = createContext({ logLevel: "off" });
    context.addComponent(plain);
    context.addComponent({
      ...plain,
      scheme: "split",
      traits: (address) => ({ inProcess: address.path.startsWith("local") }),
    });
    expect(context.componentTraits("direct:a")).toEqual({
      inProcess: true,
      messagingSystem: "routekit",
      sameExchange: true,
    });
    expect(context.componentTraits("seda:a")).toEqual({ inProcess: true, messagingSystem: "routekit" });
    expect(context.componentTraits("log:a")?.traced).toBe(false);
    expect(context.componentTraits("plain:a")).toEqual({ inProcess: false });
    expect(context.componentTraits("split:local-1")).toEqual({ inProcess: true });
    expect(context.componentTraits("split:remote")).toEqual({ inProcess: false });
    expect(context.componentTraits("unknown:a")).toBeUndefined();
    expect(made).toBe(0);
  });

  it("refuses traits that are neither { inProcess: boolean, ... } nor a function", () => {
    const context = createContext({ logLevel: "off" });
    expect(() => context.addComponent({ ...plain, traits: { messagingSystem: "x" } as never })).toThrow(
      "addComponent(): component 'plain' has traits that are not { inProcess: boolean, ... } or a function of the address (found an object with keys messagingSystem)",
    );
  });
});
