// The code of docs/guide/routing-eips.md; run by examples/test/docs-examples.test.ts.
import {
  createContext,
  type Exchange,
  type AggregationRepository as ExportedAggregationRepository,
  groupedBodies,
  RouteBuilder,
} from "@routekit/core";

interface Order {
  kind: string;
  total: number;
}

class ChoiceRoutes extends RouteBuilder {
  configure() {
    // #region choice
    this.from<Order>("direct:orders")
      .setHeader("kind", "${body.kind}")
      .choice((c) =>
        c
          .when("${header.kind} == 'book'", (r) => r.to("seda:books"))
          .when(
            (exchange) => exchange.body.total > 1000,
            (r) => r.to("direct:review"),
          )
          .otherwise((r) => r.to("log:other")),
      )
      .to("mock:done");
    // #endregion choice
  }
}

class SplitRoutes extends RouteBuilder {
  configure() {
    // #region split
    this.from("direct:batch")
      .split("${body.items}", (part) => part.to("direct:one-item")) // the original continues
      .to("mock:done");

    this.from<string>("direct:lines")
      .split(
        (exchange) => exchange.body.split("\n"),
        (part) => part.transform((exchange) => exchange.body.toUpperCase()),
        { aggregate: groupedBodies<string>(), parallel: 4 },
      )
      .to("mock:upper"); // body: string[]
    // #endregion split
  }
}

class AggregateRoutes extends RouteBuilder {
  configure() {
    // #region aggregate
    this.from("seda:order-lines?concurrentConsumers=4")
      .aggregate("${header.orderId}", {
        strategy: groupedBodies(),
        completionSize: 10,
        completionTimeout: 2000,
      })
      .to("direct:ship"); // runs once per completed group
    // #endregion aggregate
  }
}

// #region aggregation-repository
interface AggregationRepository {
  get(key: string): Exchange | undefined | Promise<Exchange | undefined>;
  put(key: string, exchange: Exchange): void | Promise<void>;
  remove(key: string): void | Promise<void>;
  keys(): Iterable<string> | Promise<Iterable<string>>;
}
// #endregion aggregation-repository

/** The page's description of the interface and the exported one accept the same objects. */
export function sameRepository(repository: ExportedAggregationRepository): AggregationRepository {
  const described: AggregationRepository = repository;
  const exported: ExportedAggregationRepository = described;
  return exported;
}

class MulticastRoutes extends RouteBuilder {
  configure() {
    // #region multicast
    this.from("direct:order")
      .multicast(["direct:billing", "direct:shipping", "mock:audit"], { parallel: true })
      .to("mock:done");

    this.from("direct:quotes").multicast(["direct:supplier-a", "direct:supplier-b"], {
      aggregate: groupedBodies(),
    });
    // #endregion multicast
  }
}

class RecipientListRoutes extends RouteBuilder {
  configure() {
    // #region recipient-list
    this.from("direct:notify").recipientList("${header.channels}"); // "mock:mail, seda:sms"
    this.from<{ targets: string[] }>("direct:route").recipientList((exchange) => exchange.body.targets); // ["direct:a", "direct:b"]
    // #endregion recipient-list
  }
}

class WireTapRoutes extends RouteBuilder {
  configure() {
    // #region wire-tap
    this.from("direct:order").wireTap("seda:audit").to("direct:process");
    // #endregion wire-tap
  }
}

class EnrichRoutes extends RouteBuilder {
  configure() {
    // #region enrich
    this.from("direct:order").enrich("direct:customer"); // the reply becomes the body

    this.from<{ sku: string }>("direct:order-priced").enrich(
      "direct:price",
      (original, resource: Exchange<number>) => ({ body: { ...original.body, price: resource.body } }),
    ); // the body is now { sku: string; price: number }
    // #endregion enrich
  }
}

function takeOne(exchange: Exchange): void {
  if (Array.isArray(exchange.body)) exchange.body = exchange.body.slice(1);
}

class LoopRoutes extends RouteBuilder {
  configure() {
    // #region loop
    this.from("direct:retry-ping").loop(3, (r) => r.to("direct:ping"));
    this.from("direct:pages").loop("${header.pages}", (r) => r.to("direct:fetch-page"));
    this.from("direct:drain").loop("${body.length} > 0", (r) => r.process(takeOne));
    // #endregion loop
  }
}

class DelayRoutes extends RouteBuilder {
  configure() {
    // #region delay
    this.from("direct:slow").delay(500).to("mock:out");
    this.from("direct:backoff").delay("${header.waitMs}").to("mock:out");
    // #endregion delay
  }
}

class SampleRoutes extends RouteBuilder {
  configure() {
    // #region sample
    this.from("direct:readings").sample(10).to("mock:dashboard");
    // #endregion sample
  }
}

/** Picks a destination from the message (for the allowedEndpoints example). */
const pick = (exchange: Exchange): string => `seda:${String(exchange.headers.target)}`;

/** Dynamic sends guarded by allowedEndpoints; the context is returned so the example can check it. */
class AllowedEndpointsRoutes extends RouteBuilder {
  made: ReturnType<typeof createContext> | undefined;

  configure() {
    // #region allowed-endpoints
    this.from("amqp:queue:notify").recipientList("${body.channels}", {
      allowedEndpoints: ["seda:notify-*", "https://hooks.example.com/*?httpMethod=POST"],
    });
    const context = createContext({ allowedEndpoints: ["seda:*?*", "mock:*"] });
    this.from("direct:any").toD((exchange) => pick(exchange), {
      allowedEndpoints: (endpoint) => endpoint.scheme === "seda" && endpoint.options.size === 0,
    });
    // #endregion allowed-endpoints
    this.made = context;
  }
}

export { AggregateRoutes, AllowedEndpointsRoutes, MulticastRoutes, WireTapRoutes };

/** What the page's routes did, route by route: replies and what reached each mock. */
export interface RoutingOutcome {
  books: unknown[];
  review: unknown[];
  done: unknown[];
  lines: unknown;
  items: unknown[];
  recipients: { a: unknown[]; b: unknown[] };
  enriched: unknown;
  priced: unknown;
  drained: unknown;
  delayed: unknown[];
  dashboard: unknown[];
}

/** Runs the choice, split, recipient list, enrich, loop, delay and sample routes of the page. */
export async function main(): Promise<RoutingOutcome> {
  const context = createContext({ logLevel: "off" });
  await context.addRoutes((r) => {
    r.from("seda:books").to("mock:books");
    r.from("direct:review").to("mock:review");
    r.from("direct:one-item").to("mock:items");
    r.from("direct:customer").setBody("customer 7");
    r.from("direct:price").setBody(() => 12);
    r.from("direct:a").to("mock:a");
    r.from("direct:b").to("mock:b");
  });
  for (const builder of [
    new ChoiceRoutes(),
    new SplitRoutes(),
    new RecipientListRoutes(),
    new EnrichRoutes(),
  ]) {
    await context.addRoutes(builder);
  }
  await context.addRoutes(new LoopRoutes());
  await context.addRoutes(new DelayRoutes());
  await context.addRoutes(new SampleRoutes());
  await context.start();

  await context.request("direct:orders", { kind: "book", total: 20 });
  await context.request("direct:orders", { kind: "car", total: 5000 });
  await context.request("direct:orders", { kind: "pen", total: 2 });
  await context.endpoint("mock:books").assertIsSatisfied(2000);
  const done = context.endpoint("mock:done").receivedBodies.slice();

  const lines = await context.request("direct:lines", "a\nb");
  await context.request("direct:batch", { items: [1, 2, 3] });
  await context.request("direct:route", { targets: ["direct:a", "direct:b"] });
  const enriched = await context.request("direct:order", { id: 1 });
  const priced = await context.request("direct:order-priced", { sku: "a" });
  const drained = await context.request("direct:drain", [1, 2, 3]);
  await context.request("direct:backoff", "now", { waitMs: 0 });
  for (let reading = 1; reading <= 25; reading++) await context.request("direct:readings", reading);
  await context.stop();
  const bodies = (uri: `mock:${string}`) => context.endpoint(uri).receivedBodies;
  return {
    books: bodies("mock:books"),
    review: bodies("mock:review"),
    done,
    lines,
    items: bodies("mock:items"),
    recipients: { a: bodies("mock:a"), b: bodies("mock:b") },
    enriched,
    priced,
    drained,
    delayed: bodies("mock:out"),
    dashboard: bodies("mock:dashboard"),
  };
}
