import type { Plugin } from "@routekit/core";
import {
  checkDurableOptions,
  type DurableRunOptions,
  durableSettingsOf,
} from "./durable/durable-settings.js";
import { recoveryLifecycle } from "./durable/recovery-lifecycle.js";
import { LlmError } from "./errors.js";
import { checkPrices, type PriceTable } from "./governance/model-prices.js";
import type { ProviderQuota } from "./governance/provider-quota.js";
import { llmComponent } from "./llm-component.js";
import { modelsOf, settingsOf } from "./llm-settings.js";
import type { LanguageModel } from "./model-types.js";
import type { ToolInputSchema } from "./schema/schema-type.js";
import { outputsOf } from "./structured-output/step-output.js";
import { defineStructuredOutput, type StructuredOutput } from "./structured-output/structured-output.js";
import { isToolErrorPolicy, type ToolErrorPolicy } from "./tool-loop/tool-error-policy.js";
import { TOOL_NAME_PATTERN } from "./tool-types.js";

/** Options of `llmPlugin`. */
export interface LlmPluginOptions {
  /** Models by the name routes use in `llm("name")` / `llm:name`. */
  models: Record<string, LanguageModel>;
  /**
   * What the model reads of a failed tool call, for every llm step of the context (a step's
   * `toolErrors=safe|message` URI option overrides it): "safe" (default), "message", or a function
   * `(error, toolName) => string`. See `ToolErrorPolicy`.
   */
  toolErrors?: ToolErrorPolicy;
  /**
   * Output schemas by name, for llm steps written as URIs: `llm:openai?output=order` makes the
   * final answer a validated object of schema `order` (the name is also what the model sees).
   */
  schemas?: Record<string, ToolInputSchema>;
  /**
   * Durable runs for steps made with `.durable()`: their state in `store` after every turn and tool
   * result, leases so one instance at a time works on a run, approvals, and recovery of runs whose
   * instance died (see the durable agents guide).
   */
  durable?: DurableRunOptions;
  /**
   * Prices by `provider/model` in US dollars per million tokens (no price is built in): each run's
   * cost is reported (result, header `llm.costUsd`, events, `llmSpendOf(context)`) and a step's
   * `maxCostUsd` budget can be checked.
   */
  prices?: PriceTable;
  /** The header naming a run's tenant: `llmSpendOf(context).byTenant()` sums the spend per value. */
  tenantHeader?: string;
  /** Longest tool result the model reads, in characters, for every step (default 32000). */
  maxToolResultChars?: number;
  /** Endpoint receiving every failed tool call of every step (a step's `toolDeadLetterUri` overrides it). */
  toolDeadLetterUri?: string;
  /**
   * A rate limit every model call of the context waits in, per provider/model (and tenant):
   * `providerQuota({ requestsPerMinute, tokensPerMinute, store })`; a Redis store shares it.
   */
  quota?: ProviderQuota;
}

/** Installs the `llm:` component and the models; the tool registry is `context.tools`. */
/** Installs the `llm:` component and the models; the tool registry is `context.tools`. */
export function llmPlugin(options: LlmPluginOptions): Plugin {
  checkModels(options);
  if (options.toolErrors !== undefined && !isToolErrorPolicy(options.toolErrors)) {
    throw new LlmError(
      "OPTION_INVALID",
      `llmPlugin: option 'toolErrors' expects "safe", "message" or a function (error, toolName) => string (found ${JSON.stringify(options.toolErrors)})`,
    );
  }
  checkSchemas(options.schemas);
  const prices = options.prices === undefined ? undefined : checkPrices(options.prices, "llmPlugin");
  checkOptionalText(options.tenantHeader, "tenantHeader", "a header name such as 'x-tenant'");
  checkOptionalText(
    options.toolDeadLetterUri,
    "toolDeadLetterUri",
    "an endpoint URI such as 'direct:tool-failures'",
  );
  checkMaxToolResultChars(options.maxToolResultChars);
  checkQuota(options.quota);
  const durable = options.durable === undefined ? undefined : checkDurableOptions(options.durable);
  const outputs: StructuredOutput[] = [];
  for (const [name, schema] of Object.entries(options.schemas ?? {})) {
    outputs.push(defineStructuredOutput(schema, { name }, `llmPlugin: schemas.${name}`));
  }
  return {
    name: "llm",
    install(context) {
      for (const output of outputs) outputsOf(context).set(output.name, output);
      const settings = settingsOf(context);
      if (options.toolErrors !== undefined) settings.toolErrors = options.toolErrors;
      if (prices !== undefined) settings.prices = prices;
      if (options.tenantHeader !== undefined) settings.tenantHeader = options.tenantHeader;
      if (options.maxToolResultChars !== undefined) settings.maxToolResultChars = options.maxToolResultChars;
      if (options.toolDeadLetterUri !== undefined) settings.toolDeadLetterUri = options.toolDeadLetterUri;
      if (options.quota !== undefined) settings.quota = options.quota;
      const models = modelsOf(context);
      for (const [name, model] of Object.entries(options.models)) models.set(name, model);
      context.addComponent(llmComponent);
      if (durable !== undefined) {
        durableSettingsOf(context).settings = durable;
        context.addLifecycle(recoveryLifecycle(context, durable.recoverEveryMs));
      }
    },
  };
}

function checkModels(options: LlmPluginOptions): void {
  if (
    options === null ||
    typeof options !== "object" ||
    options.models === null ||
    typeof options.models !== "object"
  ) {
    throw new LlmError(
      "OPTION_INVALID",
      "llmPlugin({ models }) expects models by name, e.g. { openai: openAiChat({ model: 'gpt-4o-mini' }) }",
    );
  }
  for (const [name, model] of Object.entries(options.models)) {
    if (!TOOL_NAME_PATTERN.test(name)) {
      throw new LlmError(
        "OPTION_INVALID",
        `llmPlugin: model name '${name}' must be letters, digits, '_' or '-'`,
      );
    }
    if (model === null || typeof model !== "object" || typeof model.generate !== "function") {
      throw new LlmError(
        "OPTION_INVALID",
        `llmPlugin: model '${name}' must be a provider such as openAiChat({...}) (found ${typeof model})`,
      );
    }
  }
}

function checkSchemas(schemas: LlmPluginOptions["schemas"]): void {
  if (schemas !== undefined && (schemas === null || typeof schemas !== "object" || Array.isArray(schemas))) {
    throw new LlmError(
      "OPTION_INVALID",
      `llmPlugin: option 'schemas' expects output schemas by name, e.g. { order: orderSchema } (found ${Array.isArray(schemas) ? "an array" : JSON.stringify(schemas)})`,
    );
  }
}

function checkMaxToolResultChars(maxToolResultChars: number | undefined): void {
  if (
    maxToolResultChars !== undefined &&
    !(Number.isInteger(maxToolResultChars) && maxToolResultChars >= 1)
  ) {
    throw new LlmError(
      "OPTION_INVALID",
      `llmPlugin: option 'maxToolResultChars' must be an integer >= 1 (found ${JSON.stringify(maxToolResultChars)})`,
    );
  }
}

function checkQuota(quota: ProviderQuota | undefined): void {
  if (
    quota !== undefined &&
    (typeof quota !== "object" || quota === null || typeof quota.acquire !== "function")
  ) {
    throw new LlmError(
      "OPTION_INVALID",
      `llmPlugin: option 'quota' must be made by providerQuota({ requestsPerMinute, ... }) (found ${quota === null ? "null" : typeof quota})`,
    );
  }
}

function checkOptionalText(value: unknown, option: string, expected: string): void {
  if (value === undefined || (typeof value === "string" && value.trim() !== "")) return;
  throw new LlmError(
    "OPTION_INVALID",
    `llmPlugin: option '${option}' must be ${expected} (found ${JSON.stringify(value) ?? typeof value})`,
  );
}
