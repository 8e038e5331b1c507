import type { Exchange, RouteContext } from "@routekit/core";
import { HTTP_HEADERS } from "@routekit/http";
import { LLM_HEADERS, llm } from "@routekit/llm";
import {
  type HttpFetchOptions,
  HttpFetchTool,
  JsonPathTool,
  MathEvalTool,
  RegexExtractTool,
  XPathTool,
} from "@routekit/llm-tools";

/** The SKUs the enrichment route looks up, one per timer tick. */
export const QUICKSTART_SKUS: readonly string[] = ["W-1", "G-2"];

/**
 * Adds the quickstart's routes to `context`: the five tool routes (`tool.http_fetch`, ...), the
 * `enrich` route (a timer → httpFetch → jsonPath → log → `mock:enriched`, once per SKU) and `ask`
 * (`POST /ask` answered by the llm step with those tools). The context needs `llmPlugin` with a
 * model named `assistant` and `httpPlugin`; `inventory` is the inventory API the routes call.
 */
export async function addQuickstartRoutes(
  context: RouteContext,
  inventory: { readonly baseUrl: string },
): Promise<void> {
  // #region tools
  // 1. Tool routes, one wrapper class each. http_fetch refuses loopback and private addresses by
  // default; the demo's inventory API is on 127.0.0.1, so it is allowed for that host only.
  const fetchOptions: HttpFetchOptions = { allowPrivateNetwork: true, hostAllowlist: ["127.0.0.1"] };
  await context.addRoutes(new HttpFetchTool(fetchOptions));
  await context.addRoutes(new JsonPathTool());
  await context.addRoutes(new MathEvalTool());
  await context.addRoutes(new RegexExtractTool());
  await context.addRoutes(new XPathTool());
  // #endregion

  // #region enrichment
  // 2. The same tool steps in a plain pipeline, no LLM: a timer fetches each SKU's record and
  // keeps the stock per warehouse.
  const skus = QUICKSTART_SKUS;
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
  // #endregion

  // #region ask
  // 3. POST /ask {"question": "..."}: the LLM step answers with the tools above.
  const assistant = llm("assistant")
    .tools("http_fetch", "json_path", "math_eval", "regex_extract", "xpath")
    .systemPrompt(
      `You answer questions about our stock. The inventory API is GET ${inventory.baseUrl}/inventory ` +
        "(JSON). Use the tools to read it and math_eval for arithmetic.",
    )
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
      .setBody((exchange) => ({
        answer: exchange.body,
        model: exchange.headers[LLM_HEADERS.model],
        stopReason: exchange.headers[LLM_HEADERS.stopReason],
        toolCalls: exchange.headers[LLM_HEADERS.toolCalls],
      }));
  });
  // #endregion
}
