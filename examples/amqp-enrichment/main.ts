// An enrichment pipeline on RabbitMQ: URLs arrive on a queue, each is fetched, one field
// is pulled out with JSONPath, and the result is published to another queue. No LLM involved.
// Run: pnpm exec tsx examples/amqp-enrichment/main.ts   (needs RabbitMQ on 127.0.0.1:5672)
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { amqpPlugin } from "@routekit/amqp";
import { createContext } from "@routekit/core";
import "@routekit/llm-tools";

// A small local catalogue API the pipeline enriches from.
const catalogue: Record<string, unknown> = {
  "/books/1": { items: [{ title: "Enterprise Integration Patterns", year: 2003 }] },
  "/books/2": { items: [{ title: "Camel in Action", year: 2018 }] },
  "/books/3": { items: [{ title: "Designing Data-Intensive Applications", year: 2017 }] },
};
const server = createServer((request, response) => {
  const entry = catalogue[request.url ?? ""];
  response.writeHead(entry === undefined ? 404 : 200, { "content-type": "application/json" });
  response.end(JSON.stringify(entry ?? { error: "not found" }));
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

// Queue names of their own, so the example never touches anyone else's queues.
const run = `routekit.example.${process.pid}`;
const urls = `${run}.urls`;
const enriched = `${run}.enriched`;
// Auto-delete queues: they, and their dead-letter queues, go when the example stops.
const temporary = "autoDelete=true&durable=false";

const context = createContext({ logLevel: "warn" });
context.use(amqpPlugin());
// #region pipeline
await context.addRoutes((r) => {
  r.from(`amqp:queue:${urls}?${temporary}`)
    .routeId("enrich")
    .httpFetch({ allowPrivateNetwork: true, hostAllowlist: ["127.0.0.1"] })
    .jsonPath({ path: "$.items[0]" })
    .to(`amqp:queue:${enriched}?${temporary}`);

  r.from(`amqp:queue:${enriched}?${temporary}`).routeId("collect").to("mock:enriched");
});
// #endregion pipeline

try {
  await context.start();
  for (const path of Object.keys(catalogue)) {
    await context.send(`amqp:queue:${urls}?${temporary}`, `${base}${path}`);
    console.log(`sent     ${base}${path}`);
  }
  const mock = context.endpoint("mock:enriched").expectedMessageCount(3);
  await mock.assertIsSatisfied(15_000);
  for (const body of mock.receivedBodies) console.log(`enriched ${String(body)}`);
  console.log("all three URLs were fetched, queried and published; stopping");
} finally {
  await context.stop();
  server.close();
}
