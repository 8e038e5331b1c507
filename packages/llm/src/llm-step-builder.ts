import { LlmError } from "./errors.js";

/** The options of an LLM step, as written in its `llm:` URI. */
export interface LlmStepOptions {
  tools?: readonly string[] | "*";
  maxIterations?: number;
  systemPrompt?: string;
  temperature?: number;
  maxTokens?: number;
  timeout?: number;
  toolTimeout?: number;
  parallelToolCalls?: boolean;
  allowHeaders?: readonly string[];
  includeContent?: boolean;
  toolErrors?: "safe" | "message";
}

/**
 * Builds an `llm:` URI fluently: `llm("openai").tools("a", "b").maxIterations(6).uri()` gives
 * `llm:openai?tools=a,b&maxIterations=6`. Each call returns a new builder (no shared state).
 */
export class LlmStepBuilder {
  readonly model: string;
  readonly options: Readonly<LlmStepOptions>;

  constructor(model: string, options: LlmStepOptions = {}) {
    if (typeof model !== "string" || model.trim() === "" || /[?&]/.test(model)) {
      throw new LlmError(
        "OPTION_INVALID",
        `llm(model) expects a configured model name like "openai" (found ${JSON.stringify(model)})`,
      );
    }
    this.model = model;
    this.options = options;
  }

  #with(options: LlmStepOptions): LlmStepBuilder {
    return new LlmStepBuilder(this.model, { ...this.options, ...options });
  }

  /** The tools the model may call, by registry name. */
  tools(...names: string[]): LlmStepBuilder {
    return this.#with({ tools: names.flat() });
  }

  /** Every tool in the context's registry. */
  useAllTools(): LlmStepBuilder {
    return this.#with({ tools: "*" });
  }

  maxIterations(count: number): LlmStepBuilder {
    return this.#with({ maxIterations: count });
  }

  systemPrompt(text: string): LlmStepBuilder {
    return this.#with({ systemPrompt: text });
  }

  temperature(value: number): LlmStepBuilder {
    return this.#with({ temperature: value });
  }

  maxTokens(count: number): LlmStepBuilder {
    return this.#with({ maxTokens: count });
  }

  /** A deadline for the whole step in ms. */
  timeout(ms: number): LlmStepBuilder {
    return this.#with({ timeout: ms });
  }

  /** A deadline for each tool call in ms. */
  toolTimeout(ms: number): LlmStepBuilder {
    return this.#with({ toolTimeout: ms });
  }

  parallelToolCalls(enabled = true): LlmStepBuilder {
    return this.#with({ parallelToolCalls: enabled });
  }

  /** Caller headers that tool routes may see (none by default). */
  allowHeaders(...names: string[]): LlmStepBuilder {
    return this.#with({ allowHeaders: names.flat() });
  }

  /** Put tool arguments and outputs in events (off by default). */
  includeContent(enabled = true): LlmStepBuilder {
    return this.#with({ includeContent: enabled });
  }

  /**
   * What the model reads of a failed tool call: "safe" (default: internal URLs, addresses, paths and
   * class names removed unless the error declares `expose: true`) or "message" (everything).
   */
  toolErrors(policy: "safe" | "message"): LlmStepBuilder {
    return this.#with({ toolErrors: policy });
  }

  /** The endpoint URI; option values are validated when a route using it is added. */
  uri(): string {
    const query: string[] = [];
    for (const [name, value] of Object.entries(this.options)) {
      if (value === undefined) continue;
      const text = Array.isArray(value) ? value.join(",") : String(value);
      query.push(`${name}=${encodeURIComponent(text).replace(/%2C/g, ",")}`);
    }
    return query.length === 0 ? `llm:${this.model}` : `llm:${this.model}?${query.join("&")}`;
  }

  toString(): string {
    return this.uri();
  }
}

/** Starts an LLM step for a model configured in `llmPlugin({ models })`. */
export function llm(model: string): LlmStepBuilder {
  return new LlmStepBuilder(model);
}
