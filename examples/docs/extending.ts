// The code of docs/architecture.md's plugin section and of docs/concepts.md's channel section;
// run by examples/test/docs-examples.test.ts.
import {
  createContext,
  defineComponent,
  definePlugin,
  defineServiceKey,
  type Exchange,
  type LifecycleHook,
  type RouteAspectHandler,
  RouteBuilder,
  type StepInterceptor,
} from "@routekit/core";
import { provideService } from "@routekit/core/internal";

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    /** Appends a line to the context's audit trail (only contexts with the orders plugin know it). */
    audit(label: string): RouteDsl<TBody>;
  }
  interface RouteContext {
    /** The orders plugin's book: one per context. */
    readonly orders?: OrderBook;
  }
}

/** What the orders plugin keeps per context. */
class OrderBook {
  readonly lines: string[] = [];
}

/** `shelf:NAME` stores the body under NAME in the context's order book. */
const shelfComponent = defineComponent({
  scheme: "shelf",
  options: {},
  createEndpoint: (address, context) => ({
    uri: address.uri,
    send: (exchange: Exchange) => {
      context.orders?.lines.push(`shelved ${String(exchange.body)} on ${address.path}`);
    },
  }),
});

/** What the audit lines start with in a context (the orders plugin provides it). */
const auditPrefix = defineServiceKey("orders.audit-prefix", () => "audit");

const auditStep =
  (label: string) =>
  (exchange: Exchange): void => {
    const prefix = exchange.context.service(auditPrefix);
    exchange.context.orders?.lines.push(`${prefix} ${label}: ${String(exchange.body)}`);
  };

const toolAspectHandler: RouteAspectHandler = { added: () => undefined };
const tracing: StepInterceptor = { name: "tracing", wrapStep: (_step, next) => next };
const events: string[] = [];
const start: LifecycleHook["start"] = () => void events.push("started");
const stop: LifecycleHook["stop"] = () => void events.push("stopped");

class OrderRoutes extends RouteBuilder {
  configure(): void {
    this.from("direct:orders").routeId("orders").audit("received").to("shelf:top");
  }
}

/** What the plugin's additions and the timing interceptor did. */
export interface ExtendingOutcome {
  /** The order book's lines: the audit step's and the shelf component's. */
  lines: string[] | undefined;
  /** What the timing interceptor printed, one line a step. */
  logged: string[];
  /** Whether a context without the plugin has an order book. */
  otherContextHasOrders: boolean;
  /** What the plugin's lifecycle hooks recorded. */
  events: string[];
}

/** Installs the plugin, routes an order through its step and component, times each step. */
export async function main(): Promise<ExtendingOutcome> {
  const context = createContext({ logLevel: "off" });
  const logged: string[] = [];
  const console = { log: (line: string) => void logged.push(line) };
  // #region plugin
  const ordersPlugin = definePlugin({
    name: "orders",
    setup: () => ({
      components: [shelfComponent], // URI schemes
      verbs: { audit: (label: string) => auditStep(label) }, // DSL verbs only this context knows
      interceptors: [tracing], // the channel
      services: [provideService(auditPrefix, "order")], // typed per-context values
      properties: { orders: () => new OrderBook() }, // context.orders, one per context
      aspects: { llmTool: toolAspectHandler }, // what routes carrying an aspect do when added/removed
      lifecycle: { start, stop }, // work on start and stop
    }),
  });
  context.use(ordersPlugin); // runs setup in this context only
  // #endregion plugin

  // #region interceptor
  const timing: StepInterceptor = {
    name: "timing",
    wrapStep: (step, next) => async (exchange) => {
      const started = performance.now();
      try {
        await next(exchange);
      } finally {
        console.log(`${step.routeId} ${step.path}: ${(performance.now() - started).toFixed(1)} ms`);
      }
    },
  };
  context.addInterceptor(timing); // before addRoutes
  await context.addRoutes(new OrderRoutes());
  // #endregion interceptor

  await context.start();
  await context.request("direct:orders", "book");
  await context.stop();
  return {
    lines: context.orders?.lines,
    logged,
    otherContextHasOrders: createContext({ logLevel: "off" }).orders !== undefined,
    events,
  };
}
