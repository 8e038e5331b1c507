import type { RouteContext } from "@routekit/core";
import type { PriceTable } from "./governance/model-prices.js";
import type { ProviderQuota } from "./governance/provider-quota.js";
import type { LanguageModel } from "./model-types.js";
import type { ToolErrorPolicy } from "./tool-loop/tool-error-policy.js";

/** What `llmPlugin` sets for every llm step of a context. */
export interface LlmSettings {
  toolErrors: ToolErrorPolicy;
  prices?: PriceTable;
  /** The header whose value names the tenant a run's spend is summed under. */
  tenantHeader?: string;
  maxToolResultChars?: number;
  toolDeadLetterUri?: string;
  quota?: ProviderQuota;
}

/** The llm settings of a context (from `llmPlugin`). */
export function settingsOf(context: RouteContext): LlmSettings {
  return context.service("routekit.llm.settings", (): LlmSettings => ({ toolErrors: "safe" }));
}

/** The configured models of a context, by name. */
export function modelsOf(context: RouteContext): Map<string, LanguageModel> {
  return context.service("routekit.llm.models", () => new Map<string, LanguageModel>());
}
