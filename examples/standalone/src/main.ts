// A project of its own using routekit from its packages: built with tsc, run with plain `node`.
// It checks what it prints, so it doubles as the packaging test's program. It uses all ten packages
// but amqp and console (RabbitMQ and a browser are for their own tests); Redis and PostgreSQL on
// 127.0.0.1 back stores.ts.
import assert from "node:assert/strict";
import { createContext } from "@routekit/core";
import { httpPlugin, httpServerOf } from "@routekit/http";
import { llm, llmPlugin } from "@routekit/llm";
import { scriptedModel } from "@routekit/llm/testing";
import { MathEvalTool } from "@routekit/llm-tools";
import { checkMcp } from "./mcp.js";
import { checkStoresAndTracing } from "./stores.js";

// A model that calls the order_total tool once, then answers with what the tool returned.
const model = scriptedModel([
  { toolCalls: [{ name: "order_total", arguments: { items: [{ price: 4, quantity: 3 }] } }] },
  (request) => {
    const last = request.messages.at(-1);
    const output = last?.role === "tool" ? last.results[0]?.output : "nothing";
    return { text: `The order comes to ${output}.` };
  },
]);

const context = createContext();
context.use(llmPlugin({ models: { scripted: model } }));
context.use(httpPlugin({ port: 0 }));

// A ready wrapper: math_eval mounted on direct:llm.math_eval as an LLM tool.
await context.addRoutes(new MathEvalTool());
await context.addRoutes((r) => {
  // core: direct, choice, seda, split
  r.from<{ kind: string; lines: string[] }>("direct:orders")
    .routeId("orders")
    .choice((c) =>
      c
        .when("${body.kind} == 'bulk'", (route) => route.to("seda:bulk"))
        .otherwise((route) => route.setBody("${body.lines.length}")),
    );
  r.from("seda:bulk").split("${body.lines}", (part) => part.to("mock:lines"));

  // llm-tools steps as enrichment: pull a field with JSONPath, then evaluate it with math_eval.
  r.from("direct:price")
    .jsonPath({ path: "$.formula" })
    .transform((exchange) => ({ expression: JSON.parse(exchange.body) as string }))
    .mathEval();

  // A route tool the model can call: its body is the tool's arguments.
  r.from("direct:llm.order_total")
    .asLlmTool("order_total", {
      description: "Total of an order's items.",
      input: {
        type: "object",
        properties: { items: { type: "array", items: { type: "object" } } },
        required: ["items"],
      },
    })
    .transform((exchange) => {
      const { items } = exchange.body as { items: { price: number; quantity: number }[] };
      return String(items.reduce((sum, item) => sum + item.price * item.quantity, 0));
    });
  r.from("direct:ask").to(llm("scripted").tools("order_total", "math_eval").maxIterations(4).uri());

  // Typed through declaration merging too, though this program never calls it.
  r.from("direct:fetch")
    .httpFetch({ hostAllowlist: ["api.example.com"] })
    .jsonPath({ path: "$.items" });

  // http: a loopback endpoint answering with JSON.
  r.from("http:/hello").setBody(() => ({ hello: "world" }));
});
await context.start();

const count = await context.request("direct:orders", { kind: "single", lines: ["a", "b"] });
assert.equal(count, 2);
await context.request("direct:orders", { kind: "bulk", lines: ["x", "y", "z"] });
await context.endpoint("mock:lines").expectedBodiesReceived("x", "y", "z").assertIsSatisfied(5000);
console.log("core: choice answered", count, "and split sent", context.endpoint("mock:lines").receivedBodies);

const price = await context.request("direct:price", { formula: "2 * (3 + 4)" });
assert.equal(price, "14");
console.log("llm-tools: jsonPath + mathEval gave", price);

const wrapper = await context.request("direct:llm.math_eval", { expression: "10 / 4" });
assert.equal(wrapper, "2.5");
console.log("llm-tools: MathEvalTool answered", wrapper);

assert.deepEqual(context.tools.names().sort(), ["math_eval", "order_total"]);
const answer = await context.request("direct:ask", "What does the order cost?");
assert.equal(answer, "The order comes to 12.");
console.log("llm: the model called order_total and said:", answer);

const response = await fetch(`${httpServerOf(context).url}/hello`);
const json = (await response.json()) as { hello: string };
assert.equal(response.status, 200);
assert.deepEqual(json, { hello: "world" });
console.log("http: GET /hello answered", response.status, JSON.stringify(json));

await context.stop();

await checkStoresAndTracing();
await checkMcp();
console.log("standalone: all checks passed");
