import { type ConsoleOptions, consolePlugin } from "@routekit/console";
import { createContext, type RouteContext } from "@routekit/core";
import { httpPlugin, httpServerOf } from "@routekit/http";
import { llmPlugin, openAiChat } from "@routekit/llm";
import {
  type InventoryServer,
  startInventoryServer,
} from "../../../../examples/quickstart/inventory-server.js";
import { addQuickstartRoutes } from "../../../../examples/quickstart/routes.js";
import { type ModelServer, startModelServer } from "./model-server.js";

/** The quickstart's routes (examples/quickstart/routes.ts) in a context with the console. */
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
 * The quickstart's routes — tool routes from the wrapper classes, the timer enrichment pipeline,
 * and `POST /ask` with the llm step — with the console installed first. The model is an
 * OpenAI-compatible server on loopback that asks for three tool calls (http_fetch, json_path,
 * math_eval), one per turn, then answers.
 */
export async function startQuickstart(options: ConsoleOptions = {}): Promise<QuickstartContext> {
  const inventory = await startInventoryServer(0);
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
  await addQuickstartRoutes(context, inventory);
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
