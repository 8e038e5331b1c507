import type { RouteContext } from "@routekit/core";
import type { TokenUsage } from "../model-types.js";

/** What runs spent: tokens, cost (of the priced models) and how many runs. */
export interface SpendTotals {
  runs: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  cacheWriteInputTokens: number;
  /** US dollars, over the runs whose model has a price. */
  costUsd: number;
  /** Runs ended by a budget. */
  budgetStops: number;
}

/** One run's spend, as the llm step records it. */
export interface RunSpend {
  routeId: string | undefined;
  tenant: string | undefined;
  usage: TokenUsage;
  cost: number | undefined;
  stoppedByBudget: boolean;
}

/** Most tenants kept apart; runs of further tenants are summed under `OTHER_TENANTS`. */
export const MAX_TENANTS = 10_000;
/** The key of the tenants past `MAX_TENANTS`. */
export const OTHER_TENANTS = "(other)";

/**
 * The spend of every llm step of a context, summed per route and per tenant (the header named by
 * `llmPlugin({ tenantHeader })`). Read it with `llmSpendOf(context)`.
 */
export class LlmSpend {
  readonly #total = emptyTotals();
  readonly #routes = new Map<string, SpendTotals>();
  readonly #tenants = new Map<string, SpendTotals>();

  /** Adds one run. */
  record(run: RunSpend): void {
    add(this.#total, run);
    add(totalsOf(this.#routes, run.routeId ?? "(no route)"), run);
    if (run.tenant !== undefined) {
      const key =
        this.#tenants.has(run.tenant) || this.#tenants.size < MAX_TENANTS ? run.tenant : OTHER_TENANTS;
      add(totalsOf(this.#tenants, key), run);
    }
  }

  /** Every run of the context. */
  total(): SpendTotals {
    return { ...this.#total };
  }

  /** The runs of one route (undefined when it ran none). */
  route(routeId: string): SpendTotals | undefined {
    const totals = this.#routes.get(routeId);
    return totals === undefined ? undefined : { ...totals };
  }

  /** The runs of one tenant (undefined when it ran none). */
  tenant(tenant: string): SpendTotals | undefined {
    const totals = this.#tenants.get(tenant);
    return totals === undefined ? undefined : { ...totals };
  }

  /** Every route's totals, by route id. */
  byRoute(): Record<string, SpendTotals> {
    return copyAll(this.#routes);
  }

  /** Every tenant's totals, by tenant. */
  byTenant(): Record<string, SpendTotals> {
    return copyAll(this.#tenants);
  }
}

/** The spend accounting of a context's llm steps. */
export function llmSpendOf(context: RouteContext): LlmSpend {
  return context.service("routekit.llm.spend", () => new LlmSpend());
}

function emptyTotals(): SpendTotals {
  return {
    runs: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    cacheWriteInputTokens: 0,
    costUsd: 0,
    budgetStops: 0,
  };
}

function totalsOf(map: Map<string, SpendTotals>, key: string): SpendTotals {
  let totals = map.get(key);
  if (totals === undefined) {
    totals = emptyTotals();
    map.set(key, totals);
  }
  return totals;
}

function add(totals: SpendTotals, run: RunSpend): void {
  totals.runs += 1;
  totals.inputTokens += run.usage.inputTokens;
  totals.outputTokens += run.usage.outputTokens;
  totals.cachedInputTokens += run.usage.cachedInputTokens ?? 0;
  totals.cacheWriteInputTokens += run.usage.cacheWriteInputTokens ?? 0;
  totals.costUsd += run.cost ?? 0;
  if (run.stoppedByBudget) totals.budgetStops += 1;
}

function copyAll(map: Map<string, SpendTotals>): Record<string, SpendTotals> {
  const copy: Record<string, SpendTotals> = {};
  for (const [key, totals] of map) copy[key] = { ...totals };
  return copy;
}
