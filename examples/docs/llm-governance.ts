// The code of docs/guide/llm-step.md (Budgets, cost and quotas): type-checked; the test runs
// main() with a scripted model standing in for "openai/gpt-4o-mini", so no network is needed.
import assert from "node:assert/strict";
import { createContext } from "@routekit/core";
import { llm, llmPlugin, llmSpendOf, providerQuota } from "@routekit/llm";
import { scriptedModel } from "@routekit/llm/testing";
import type { RedisStore } from "@routekit/redis";

export async function main(): Promise<void> {
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
  assert.equal(exchange.body, "A-1 has shipped.");
  assert.equal(exchange.headers["llm.stopReason"], "stop");
  const cost = (1900 * 0.15 + 60 * 0.6) / 1_000_000;
  assert.ok(Math.abs((exchange.headers["llm.costUsd"] as number) - cost) < 1e-12);
  assert.equal(acme?.runs, 1);
  assert.equal(support?.inputTokens, 1900);
  await context.stop();
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
