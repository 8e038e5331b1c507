// The code of docs/guide/expressions.md; run by examples/test/docs-examples.test.ts.
import {
  body,
  constant,
  createContext,
  evaluateJsonPath,
  evaluateXPath,
  header,
  jsonpath,
  simple,
} from "@routekit/core";

interface Order {
  kind: string;
  total: number;
  items: string[];
}

function computeDiscount(order: Order): number {
  return order.total > 100 ? 0.1 : 0;
}

/** What the page's routes and lines produced: headers, properties, bodies and evaluated values. */
export interface ExpressionsOutcome {
  /** Each order that passed the filter: its summary header and discount property. */
  books: { summary: unknown; discount: unknown }[];
  /** The bodies the three spellings of one predicate let through. */
  same: unknown[];
  priced: { reply: unknown; double: unknown };
  helpers: { headers: Record<string, unknown>; original: unknown };
  jsonpath: unknown[];
  xpath: unknown;
}

/** Runs the page's routes, its three spellings of one predicate and its JSONPath and XPath lines. */
export async function main(): Promise<ExpressionsOutcome> {
  const context = createContext({ logLevel: "off" });
  await context.addRoutes((r) => {
    // #region orders
    r.from<Order>("direct:orders")
      .setHeader("kind", "${body.kind}") // the value, with its type
      .setHeader("summary", "Order ${exchangeId}: ${body.items.length} item(s)") // a string
      .filter("${header.kind} == 'book' AND ${body.total} > 20")
      .setProperty("discount", (exchange) => computeDiscount(exchange.body)) // a function
      .to("mock:books");
    // #endregion orders
    // #region predicates
    r.from("direct:camel-style").filter("${header.kind} == 'book'").to("mock:same"); // values in ${}, operators outside
    r.from("direct:bare").filter("header.kind == 'book'").to("mock:same"); // bare
    r.from("direct:one-group").filter("${header.kind == 'book'}").to("mock:same"); // everything inside one ${}
    // #endregion predicates
    // #region functions
    r.from<Order>("direct:priced")
      .setHeader("double", (exchange) => exchange.body.total * 2) // instead of "${body.total * 2}"
      .filter((exchange) => exchange.body.kind === "book") // instead of "${body.kind} == 'book'"
      .setBody((exchange) => evaluateJsonPath(exchange.body, "$.items[*]")) // instead of "${jpath('$.items[*]')}"
      .to("mock:priced");
    // #endregion functions
    // #region helpers
    r.from("direct:helpers")
      .setHeader("kind", header("type")) // the value of header "type"
      .setHeader("source", constant("catalogue")) // a constant
      .setProperty("original", body()) // the body as it is now
      .setHeader("firstItem", jsonpath("$.items[0]")) // JSONPath over the body
      .setHeader("label", simple("${header.kind}-${body.items.length}")) // forced simple language
      .to("mock:helpers");
    // #endregion helpers
  });
  await context.start();

  const book = { kind: "book", total: 150, items: ["Dune", "Emma"] };
  await context.request("direct:orders", book);
  await context.request("direct:orders", { kind: "pen", total: 150, items: ["pen"] });

  for (const uri of ["direct:camel-style", "direct:bare", "direct:one-group"]) {
    await context.request(uri, "yes", { kind: "book" });
    await context.request(uri, "no", { kind: "pen" });
  }

  const pricedReply = await context.request("direct:priced", book);
  await context.request("direct:helpers", { items: ["Dune", "Emma"] }, { type: "book" });
  await context.stop();
  const helped = context.endpoint("mock:helpers").received[0];
  const { kind, source, firstItem, label } = helped?.headers ?? {};

  const doc = {
    store: {
      book: [
        { title: "Dune", price: 8 },
        { title: "Emma", price: 12 },
        { title: "Ulysses", price: 15 },
      ],
    },
  };
  // #region jsonpath
  evaluateJsonPath(doc, "$.store.book[0].title"); // "Dune"
  evaluateJsonPath(doc, "$.store.book[?(@.price > 10)].title"); // ["Emma", "Ulysses"]
  evaluateJsonPath(doc, "$..isbn"); // [] when there is none
  evaluateJsonPath(doc, "$.store.missing"); // undefined
  // #endregion jsonpath
  const xml = '<books><book id="b1"><price>8</price><title>Dune</title></book></books>';
  return {
    books: context.endpoint("mock:books").received.map((exchange) => ({
      summary: exchange.headers.summary,
      discount: exchange.properties.discount,
    })),
    same: context.endpoint("mock:same").receivedBodies,
    priced: { reply: pricedReply, double: context.endpoint("mock:priced").received[0]?.headers.double },
    helpers: { headers: { kind, source, firstItem, label }, original: helped?.properties.original },
    jsonpath: [
      evaluateJsonPath(doc, "$.store.book[0].title"),
      evaluateJsonPath(doc, "$.store.book[?(@.price > 10)].title"),
      evaluateJsonPath(doc, "$..isbn"),
      evaluateJsonPath(doc, "$.store.missing"),
    ],
    xpath: evaluateXPath(xml, "//book/@id"),
  };
}
