import {
  createContext,
  defineComponent,
  definePlugin,
  defineServiceKey,
  type Exchange,
  type RouteContext,
  RoutekitError,
} from "@routekit/core";
import { provideService } from "@routekit/core/internal";
import { afterEach, describe, expect, it } from "vitest";

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    /** A verb only contexts with the `stamper` plugin know (test only). */
    stamp(mark: string): RouteDsl<TBody>;
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

const prefix = defineServiceKey("test.stamp-prefix", () => "default");

/** A plugin whose setup returns one of each of the four kinds of addition: component, verb, interceptor, service. */
const stamper = (given: string, log: string[]) =>
  definePlugin({
    name: "stamper",
    setup(context) {
      log.push(`setup ${contexts.indexOf(context)}`);
      return {
        components: [
          defineComponent({
            scheme: "stamps",
            options: {},
            createEndpoint: (address) => ({
              uri: address.uri,
              send: (exchange: Exchange) => {
                exchange.body = `${String(exchange.body)} kept in ${address.path}`;
              },
            }),
          }),
        ],
        verbs: {
          stamp: (mark: string) => (exchange: Exchange) => {
            exchange.body = `${context.service(prefix)}:${mark}:${String(exchange.body)}`;
          },
        },
        interceptors: [
          {
            name: "step-log",
            wrapStep: (step, next) => (exchange) => {
              log.push(step.label);
              return next(exchange);
            },
          },
        ],
        services: [provideService(prefix, given)],
      };
    },
  });

describe("definePlugin", () => {
  it("runs setup once in each context and installs what it returns there only", async () => {
    const log: string[] = [];
    const plugin = stamper("pre", log);
    const first = newContext().use(plugin);
    const second = newContext();
    await first.addRoutes((r) => r.from("direct:in").stamp("a").to("stamps:box"));
    await first.start();
    expect(await first.request("direct:in", "ada")).toBe("pre:a:ada kept in box");
    expect(log).toEqual(["setup 0", "#1 stamp", "#2 to(stamps:box)"]);
    expect(second.service(prefix)).toBe("default");
    await expect(second.addRoutes((r) => r.from("direct:x").to("stamps:box"))).rejects.toThrow(
      "no component for scheme 'stamps'",
    );
    const third = newContext().use(plugin);
    expect(log.at(-1)).toBe("setup 2");
    expect(third.service(prefix)).toBe("pre");
  });

  it("refuses a definition or a setup result it cannot install, naming the plugin and the field", () => {
    expect(() => definePlugin({ name: "", setup: () => undefined })).toThrow(
      "definePlugin expects { name, setup(context), everyContext? } with a non-empty name",
    );
    expect(() => definePlugin({ name: "nosetup" } as never)).toThrow(
      "definePlugin 'nosetup': setup must be a function (context) => what the plugin adds (found undefined)",
    );
    const context = newContext();
    const returning = (value: unknown) => definePlugin({ name: "odd", setup: () => value as never });
    expect(() => context.use(returning({ verbz: {} }))).toThrow(
      "Plugin 'odd': setup returned an unknown field 'verbz' (did you mean verbs?)",
    );
    expect(() => context.use(returning({ components: {} }))).toThrow(
      "Plugin 'odd': setup: components must be an array",
    );
    expect(() => context.use(returning({ services: [{ value: 1 }] }))).toThrow(
      "Plugin 'odd': setup's services must be made by provideService(key, value)",
    );
    const error = (() => {
      try {
        context.service(prefix);
        context.use(stamper("late", []));
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(RoutekitError);
    expect((error as Error).message).toBe(
      "Plugin 'stamper': service 'test.stamp-prefix' already has a value in this context (provided twice, or read before the plugin was installed)",
    );
  });
});
