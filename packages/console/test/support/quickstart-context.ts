import { type ConsoleOptions, consolePlugin } from "@routekit/console";
import { createContext, type Exchange, type RouteContext } from "@routekit/core";
import { HTTP_HEADERS, httpPlugin, httpServerOf } from "@routekit/http";
import { llm, llmPlugin, openAiChat } from "@routekit/llm";
import {
  type HttpFetchOptions,
  HttpFetchTool,
  JsonPathTool,
  MathEvalTool,
  RegexExtractTool,
  XPathTool,
} from "@routekit/llm-tools";
import { type InventoryServer, startInventoryServer } from "./inventory-server.js";
import { type ModelServer, startModelServer } from "./model-server.js";

/** The quickstart's routes (examples/quickstart/main.ts) in a context with the console. */
export interface QuickstartContext {
  readonly context: RouteContext;
  readonly inventory: InventoryServer;
  readonly model: ModelServer;
  /** `http://127.0.0.1:<port>/ask` */
  readonly askUrl: string;
  close(): Promise<void>;
}

const silent = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/**
 * The quickstart's three parts — tool routes from the wrapper classes, the timer enrichment
 * pipeline, and `POST /ask` with the llm step — with the console installed first. The model is an
 * OpenAI-compatible server on loopback that asks for three tool calls (http_fetch, json_path,
 * math_eval), one per turn, then answers.
 */
export async function startQuickstart(options: ConsoleOptions = {}): Promise<QuickstartContext> {
  const inventory = await startInventoryServer();
  const model = await startModelServer([
    {
      toolCalls: [
        { name: "http_fetch", arguments: JSON.stringify({ url: `${inventory.baseUrl}/inventory` }) },
      ],
    },
    {
      toolCalls: [
        {
          name: "json_path",
          arguments: JSON.stringify({ json: '{"stock":[140,95]}', path: "$.stock[*]" }),
        },
      ],
    },
    { toolCalls: [{ name: "math_eval", arguments: JSON.stringify({ expression: "(140 + 95) * 3.5" }) }] },
    { text: "We have 235 widgets worth 822.5 in total." },
  ]);
  const context = createContext({ logger: silent });
  context.use(consolePlugin({ port: 0, ...options }));
  context.use(
    llmPlugin({
      models: { assistant: openAiChat({ model: "gpt-4o-mini", baseURL: model.url, apiKey: "test-key" }) },
    }),
  );
  context.use(httpPlugin({ host: "127.0.0.1", port: 0 }));

  const fetchOptions: HttpFetchOptions = { allowPrivateNetwork: true, hostAllowlist: ["127.0.0.1"] };
  await context.addRoutes(new HttpFetchTool(fetchOptions));
  await context.addRoutes(new JsonPathTool());
  await context.addRoutes(new MathEvalTool());
  await context.addRoutes(new RegexExtractTool());
  await context.addRoutes(new XPathTool());

  const skus = ["W-1", "G-2"];
  await context.addRoutes((r) => {
    r.from("timer:enrich?period=300&repeatCount=2")
      .routeId("enrich")
      .setHeader("sku", (exchange) => skus[Number(exchange.headers["timer.counter"]) - 1])
      .setBody((exchange: Exchange) => `${inventory.baseUrl}/inventory/${String(exchange.headers.sku)}`)
      .httpFetch(fetchOptions)
      .jsonPath({ path: "$.warehouses[*].stock" })
      .log("stock of ${header.sku} per warehouse: ${body}")
      .to("mock:enriched");
  });

  const assistant = llm("assistant")
    .tools("http_fetch", "json_path", "math_eval", "regex_extract", "xpath")
    .systemPrompt("You answer questions about our stock.")
    .maxIterations(6)
    .includeContent();
  await context.addRoutes((r) => {
    r.from("http:/ask?httpMethodRestrict=POST")
      .routeId("ask")
      .process((exchange) => {
        const question = (exchange.body as { question?: unknown } | null)?.question;
        if (typeof question === "string" && question.trim() !== "") exchange.body = question;
        else {
          exchange.headers[HTTP_HEADERS.status] = 400;
          exchange.body = { error: 'expected a JSON body like {"question": "..."}' };
        }
      })
      .filter((exchange): exchange is Exchange<string> => typeof exchange.body === "string")
      .to(assistant.uri())
      .setBody((exchange) => ({ answer: exchange.body }));
  });
  await context.start();
  return {
    context,
    inventory,
    model,
    askUrl: `${httpServerOf(context).url}/ask`,
    async close() {
      await context.stop();
      await inventory.close();
      await model.close();
    },
  };
}
