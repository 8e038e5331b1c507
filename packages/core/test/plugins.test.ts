import {
  createContext,
  defineComponent,
  definePlugin,
  type Exchange,
  type Plugin,
  type RouteContext,
  RoutekitError,
} from "@routekit/core";
import { defineVerb, installVerbs } from "@routekit/core/internal";
import { afterEach, describe, expect, it } from "vitest";

installVerbs({
  tagRoute: defineVerb({
    record: (recorder, value: string) => {
      recorder.route.aspects.tag = value;
      return undefined;
    },
  }),
});

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    /** A step only contexts with the `greeter` plugin know. */
    greet(prefix: string): RouteDsl<TBody>;
    /** Marks the route with the `tag` aspect (test only). */
    tagRoute(value: string): RouteDsl<TBody>;
  }
  interface RouteContext {
    readonly greetings?: string[];
    readonly visits?: { count: number };
  }
}

const contexts: RouteContext[] = [];
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.stop();
});

function newContext(): RouteContext {
  const context = createContext();
  contexts.push(context);
  return context;
}

/** A plugin declaring one of each kind of addition. */
function greeterPlugin(log: string[]): Plugin {
  return {
    name: "greeter",
    components: [
      defineComponent({
        scheme: "shelf",
        options: {},
        createEndpoint: (address) => ({
          uri: address.uri,
          send: (exchange: Exchange) => {
            exchange.body = `shelved ${String(exchange.body)} at ${address.path}`;
          },
        }),
      }),
    ],
    steps: {
      greet: (prefix: string) => (exchange: Exchange) => {
        exchange.body = `${prefix} ${String(exchange.body)}`;
      },
    },
    properties: { greetings: () => [] as string[] },
    lifecycle: { start: () => void log.push("start"), stop: () => void log.push("stop") },
    install: (context) => context.greetings?.push("installed"),
  };
}

describe("plugins are installed per context", () => {
  it("gives one context its components, steps, properties and lifecycle, and no other context any of them", async () => {
    const log: string[] = [];
    const withPlugin = newContext().use(greeterPlugin(log));
    const without = newContext();

    await withPlugin.addRoutes((r) => r.from("direct:in").greet("hello").to("shelf:top"));
    await withPlugin.start();
    expect(await withPlugin.request("direct:in", "ada")).toBe("shelved hello ada at top");
    expect(withPlugin.greetings).toEqual(["installed"]);
    expect(log).toEqual(["start"]);

    // The other context has none of it: no verb, no property, no scheme.
    expect(without.greetings).toBeUndefined();
    expect(Object.getPrototypeOf(withPlugin)).not.toHaveProperty("greetings");
    await expect(without.addRoutes((r) => r.from("direct:in").greet("hello"))).rejects.toThrow(
      /greet is not a function/,
    );
    await expect(without.addRoutes((r) => r.from("direct:x").to("shelf:top"))).rejects.toThrow(
      "no component for scheme 'shelf'",
    );

    await withPlugin.stop();
    expect(log).toEqual(["start", "stop"]);
  });

  it("keeps each context's property value its own", () => {
    const first = newContext().use({ name: "visits", properties: { visits: () => ({ count: 0 }) } });
    const second = newContext().use({ name: "visits", properties: { visits: () => ({ count: 0 }) } });
    first.visits!.count += 2;
    expect(first.visits).toEqual({ count: 2 });
    expect(second.visits).toEqual({ count: 0 });
  });

  it("runs aspect handlers of this context only, and refuses a route whose aspect no plugin handles", async () => {
    const seen: string[] = [];
    const handler = (label: string) => ({
      added: (_context: RouteContext, route: { id: string }, aspect: unknown) =>
        void seen.push(`${label} added ${route.id}:${String(aspect)}`),
      removed: (_context: RouteContext, route: { id: string }) =>
        void seen.push(`${label} removed ${route.id}`),
    });
    const first = newContext().use({ name: "tags", aspects: { tag: handler("first") } });
    const second = newContext().use({ name: "tags", aspects: { tag: handler("second") } });
    await first.addRoutes((r) => r.from("direct:a").routeId("a").tagRoute("red").to("mock:a"));
    await second.addRoutes((r) => r.from("direct:b").routeId("b").to("mock:b"));
    await first.removeRoute("a");
    expect(seen).toEqual(["first added a:red", "first removed a"]);

    const bare = newContext();
    await expect(
      bare.addRoutes((r) => r.from("direct:c").routeId("carrier").tagRoute("blue")),
    ).rejects.toThrow("Route 'carrier' carries aspect 'tag', but no plugin of this context handles it");
    expect(bare.routes()).toEqual([]);
  });

  it("refuses a malformed plugin, naming the plugin and the field", () => {
    const context = newContext();
    expect(() => context.use({ name: "typo", compnents: [] } as never)).toThrow(
      "Plugin 'typo': unknown field 'compnents' (did you mean components?)",
    );
    expect(() => context.use({ name: "bad", steps: [] } as never)).toThrow(
      "Plugin 'bad': steps must be an object keyed by name (found an object with keys (none))",
    );
    expect(() => context.use({ name: "bad", install: 3 } as never)).toThrow(
      "Plugin 'bad': install must be a function (context) => void (found number 3)",
    );
    expect(() => context.use({ name: "bad", steps: { shout: "loud" } } as never)).toThrow(
      "Plugin 'bad': steps.shout must be a function (...args) => processor (found string loud)",
    );
    expect(() => context.use({ name: "bad", properties: { request: () => 1 } } as never)).toThrow(
      "Plugin 'bad': property 'request' would hide the context's own member of that name",
    );
    expect(() => context.use(42 as never)).toThrow(RoutekitError);
  });
});

describe("definePlugin({ everyContext: true })", () => {
  it("installs into every context created afterwards, each with its own state", () => {
    definePlugin({
      name: "test-default-counter",
      everyContext: true,
      setup: () => ({ properties: { visits: () => ({ count: 0 }) } }),
    });
    const first = newContext();
    const second = newContext();
    first.visits!.count++;
    expect(first.visits).toEqual({ count: 1 });
    expect(second.visits).toEqual({ count: 0 });
  });
});
