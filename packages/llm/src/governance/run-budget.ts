import { LlmError } from "../errors.js";
import type { ChatMessage, TokenUsage } from "../model-types.js";
import { messageTokens } from "./estimate-tokens.js";
import { costOf, type ModelPrice } from "./model-prices.js";

/** Limits of one run; a run about to cross one (or that crossed one) ends with stop reason "budget". */
export interface RunBudget {
  /** Input plus output tokens over every model call of the run. */
  maxTotalTokens?: number;
  maxInputTokens?: number;
  maxOutputTokens?: number;
  /** Cost of the run in US dollars, from the model's price (see `llmPlugin({ prices })`). */
  maxCostUsd?: number;
}

/** The budget names, for checks at run time. */
export const BUDGET_NAMES = ["maxTotalTokens", "maxInputTokens", "maxOutputTokens", "maxCostUsd"] as const;

export type BudgetName = (typeof BUDGET_NAMES)[number];

/** Which budget ended a run, and when it was seen. */
export interface BudgetStop {
  budget: BudgetName;
  limit: number;
  /**
   * Before a call: what the run would reach if the call were made (its input estimated from the
   * conversation's size, its output as its `maxTokens`); after a call: what the run used.
   */
  used: number;
  check: "before-call" | "after-call";
}

/** Throws `OPTION_INVALID` naming the first budget that is not a number > 0. */
export function checkBudget(budget: RunBudget, where: string): void {
  for (const name of BUDGET_NAMES) {
    const value = budget[name];
    if (value === undefined) continue;
    const whole = name !== "maxCostUsd";
    if (
      typeof value !== "number" ||
      !(value > 0) ||
      !Number.isFinite(value) ||
      (whole && !Number.isInteger(value))
    ) {
      throw new LlmError(
        "OPTION_INVALID",
        `${where}: option '${name}' must be ${whole ? "an integer number of tokens >= 1" : "a number of US dollars > 0"}, got ${typeof value === "number" ? value : typeof value}`,
      );
    }
  }
}

/** True when any budget is set. */
export function hasBudget(budget: RunBudget): boolean {
  return BUDGET_NAMES.some((name) => budget[name] !== undefined);
}

/** Adds one call's usage to the run's. */
export function addUsage(total: TokenUsage, call: TokenUsage): void {
  total.inputTokens += call.inputTokens;
  total.outputTokens += call.outputTokens;
  if (call.cachedInputTokens !== undefined) {
    total.cachedInputTokens = (total.cachedInputTokens ?? 0) + call.cachedInputTokens;
  }
  if (call.cacheWriteInputTokens !== undefined) {
    total.cacheWriteInputTokens = (total.cacheWriteInputTokens ?? 0) + call.cacheWriteInputTokens;
  }
}

/**
 * The budget checks of one run, shared by `runToolLoop` and durable runs: `beforeCall` with the
 * conversation about to be sent, `afterCall` with the run's usage once the call reported it.
 */
export class BudgetCheck {
  readonly #budget: RunBudget;
  readonly #price: ModelPrice | undefined;
  // The conversation grows by appending: each message's size is estimated once.
  #counted = 0;
  #estimated = 0;

  constructor(budget: RunBudget, price: ModelPrice | undefined) {
    this.#budget = budget;
    this.#price = price;
  }

  /** The stop the next call would cause, or undefined when the call may be made. */
  beforeCall(
    usage: TokenUsage,
    messages: readonly ChatMessage[],
    system: string | undefined,
    maxTokens: number | undefined,
  ): BudgetStop | undefined {
    const input = this.estimateInput(messages, system);
    const output = maxTokens ?? 0;
    const budget = this.#budget;
    const next = { inputTokens: usage.inputTokens + input, outputTokens: usage.outputTokens + output };
    return (
      over(budget, "maxInputTokens", next.inputTokens, "before-call") ??
      over(
        budget,
        "maxOutputTokens",
        maxTokens === undefined ? usage.outputTokens + 1 : next.outputTokens,
        "before-call",
      ) ??
      over(budget, "maxTotalTokens", next.inputTokens + next.outputTokens, "before-call") ??
      (this.#price === undefined
        ? undefined
        : over(budget, "maxCostUsd", costOf(next, this.#price), "before-call"))
    );
  }

  /** The stop the run's usage now causes, or undefined. */
  afterCall(usage: TokenUsage): BudgetStop | undefined {
    const budget = this.#budget;
    return (
      over(budget, "maxInputTokens", usage.inputTokens, "after-call") ??
      over(budget, "maxOutputTokens", usage.outputTokens, "after-call") ??
      over(budget, "maxTotalTokens", usage.inputTokens + usage.outputTokens, "after-call") ??
      (this.#price === undefined
        ? undefined
        : over(budget, "maxCostUsd", costOf(usage, this.#price), "after-call"))
    );
  }

  /** The conversation's size in tokens, estimated as a quarter of its JSON's length. */
  estimateInput(messages: readonly ChatMessage[], system: string | undefined): number {
    if (messages.length < this.#counted) {
      this.#counted = 0;
      this.#estimated = 0;
    }
    for (; this.#counted < messages.length; this.#counted++) {
      this.#estimated += messageTokens(messages[this.#counted] as ChatMessage);
    }
    return this.#estimated + (system === undefined ? 0 : Math.ceil(system.length / 4));
  }
}

/**
 * A stop when `used` crosses the budget. Before a call, reaching the limit exactly is allowed
 * (maxOutputTokens without maxTokens checks one more token than used: a call needs at least one).
 */
function over(
  budget: RunBudget,
  name: BudgetName,
  used: number,
  check: BudgetStop["check"],
): BudgetStop | undefined {
  const limit = budget[name];
  if (limit === undefined || used <= limit) return undefined;
  return { budget: name, limit, used, check };
}
