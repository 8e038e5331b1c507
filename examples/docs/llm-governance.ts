// The code of docs/guide/llm-step.md (Budgets, cost and quotas): type-checked; the test runs
// main() with a scripted model standing in for "openai/gpt-4o-mini", so no network is needed.
import { createContext } from "@routekit/core";
import { llm, llmPlugin, llmSpendOf, providerQuota, type SpendTotals } from "@routekit/llm";
import { scriptedModel } from "@routekit/llm/testing";
import type { RedisStore } from "@routekit/redis";

/** What the governed support route did: its reply, the headers it set, the spend and what the model was sent. */
export interface GovernanceOutcome {
  body: unknown;
  stopReason: unknown;
  costUsd: unknown;
  tenant: SpendTotals | undefined;
  route: SpendTotals | undefined;
  /** The tool results the model was sent on its second turn. */
  toolResults: unknown[];
}

/** Runs the page's plugin, step and spend lines against a scripted model; returns what they did. */
export async function main(): Promise<GovernanceOutcome> {
  const context = createContext({ logLevel: "warn" });
  const openai = scriptedModel(
    [
      {
        toolCalls: [{ name: "lookup", arguments: { order: "A-1" } }],
        usage: { inputTokens: 900, outputTokens: 40 },
      },
      { text: "A-1 has shipped.", usage: { inputTokens: 1000, outputTokens: 20 } },
    ],
    { provider: "openai", model: "gpt-4o-mini" },
  );
  // #region governance-plugin
  context.use(
    llmPlugin({
      models: { openai },
      // Your prices, in US dollars per million tokens: routekit ships none.
      prices: { "openai/gpt-4o-mini": { inputPerMillion: 0.15, outputPerMillion: 0.6 } },
      tenantHeader: "x-tenant",
      quota: providerQuota({ requestsPerMinute: 500, tokensPerMinute: 200_000 }),
      toolDeadLetterUri: "seda:tool-failures",
    }),
  );
  // #endregion governance-plugin
  await context.addRoutes((r) => {
    r.from("direct:lookup")
      .asLlmTool("lookup", { description: "Looks an order up.", maxResultChars: 4000 })
      .setBody(() => ({ order: "A-1", status: "shipped" }));
    r.from("seda:tool-failures").to("log:tool-failures");
    // #region governance-step
    r.from("direct:support")
      .routeId("support")
      .to(
        llm("openai")
          .tools("lookup")
          .maxTokens(500)
          .maxTotalTokens(20_000)
          .maxCostUsd(0.05)
          .maxToolResultChars(16_000)
          .uri(),
      );
    // #endregion governance-step
  });
  await context.start();
  // #region governance-spend
  const exchange = await context.requestExchange("direct:support", {
    body: "Where is order A-1?",
    headers: { "x-tenant": "acme" },
  });
  console.log(exchange.headers["llm.stopReason"], exchange.headers["llm.costUsd"]);
  const acme = llmSpendOf(context).tenant("acme"); // { runs, inputTokens, outputTokens, costUsd, ... }
  const support = llmSpendOf(context).route("support");
  // #endregion governance-spend
  await context.stop();
  return {
    body: exchange.body,
    stopReason: exchange.headers["llm.stopReason"],
    costUsd: exchange.headers["llm.costUsd"],
    tenant: acme,
    route: support,
    toolResults: openai.requests.flatMap((request) =>
      request.messages.flatMap((message) => (message.role === "tool" ? message.results : [])),
    ),
  };
}

/** The quota shared by every instance (not run by the test: it needs Redis). */
export function sharedQuota(redis: RedisStore) {
  // #region governance-redis-quota
  const quota = providerQuota({
    requestsPerMinute: 500,
    tokensPerMinute: 200_000,
    perTenant: false,
    whenLimited: "wait", // or "fail": refuse at once instead of waiting
    maxWaitMs: 30_000,
    store: redis.quotaStore("llm"),
  });
  // #endregion governance-redis-quota
  return quota;
}
