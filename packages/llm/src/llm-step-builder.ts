import type { RouteDsl } from "@routekit/core";
import { LlmError } from "./errors.js";
import type { SchemaOutput, ToolInputSchema } from "./schema/schema-type.js";
import { inlineOutputId } from "./structured-output/inline-outputs.js";
import {
  defineStructuredOutput,
  type StructuredOutput,
  type StructuredOutputOptions,
} from "./structured-output/structured-output.js";
import type { LlmStream } from "./tool-loop/stream-tool-loop.js";
import type { UiMessageStream } from "./ui-message/ui-message-stream.js";

declare const replyType: unique symbol;

/**
 * An `llm:` URI that carries, for the type checker only, the type of the step's reply: `.to(uri)`
 * types the body after the step (the answer text, or the structured output's type).
 */
export type LlmStepUri<TReply> = string & { readonly [replyType]: TReply };

// An overload of core's own `to` verb: added where core declares it (`CoreVerbs`), so it merges
// with core's signature instead of hiding it.
declare module "@routekit/core/internal" {
  interface CoreVerbs<TBody> {
    /** Sends to an llm step built with `llm(...)...uri()`: the body becomes its reply, typed. */
    to<TReply>(uri: LlmStepUri<TReply>): RouteDsl<TReply>;
  }
}

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
  /** The name of a structured output: registered in `llmPlugin({ schemas })`, or made by `output(schema)`. */
  output?: string;
  /** How many answers that do not match the output schema are sent back for another try; default 2. */
  maxOutputRetries?: number;
  /** Hand the answer on as an `LlmStream` while it is written (see `.stream()`). */
  stream?: boolean;
  /** With `stream`: routekit's parts (default) or the AI SDK's UI message stream ("ui-message"). */
  streamFormat?: "parts" | "ui-message";
  /** Checkpoint the run in the durable store of `llmPlugin({ durable })` (see `.durable()`). */
  durable?: boolean;
  /** Budget of a conversation kept across requests (header `llm.thread.id`), in estimated tokens; default 8000. */
  threadTokens?: number;
  maxTotalTokens?: number;
  maxInputTokens?: number;
  maxOutputTokens?: number;
  maxCostUsd?: number;
  maxToolResultChars?: number;
  toolDeadLetterUri?: string;
}

/**
 * Builds an `llm:` URI fluently: `llm("openai").tools("a", "b").maxIterations(6).uri()` gives
 * `llm:openai?tools=a,b&maxIterations=6`. Each call returns a new builder (no shared state).
 * `TReply` is the body after the step: the answer text, or with `output(...)` the schema's type.
 */
export class LlmStepBuilder<TReply = string> {
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

  #with<TNext = TReply>(options: LlmStepOptions): LlmStepBuilder<TNext> {
    return new LlmStepBuilder<TNext>(this.model, { ...this.options, ...options });
  }

  /**
   * Makes the final answer a validated object: a schema (JSON Schema or Standard Schema, whose
   * type the reply takes), or the name of one registered with `llmPlugin({ schemas })` (then give
   * the type: `.output<Order>("order")`). OpenAI gets a strict `json_schema` response format,
   * Anthropic an answer tool it must call, other models answer with JSON text. Works with tools.
   */
  output<TOutput = unknown>(name: string): LlmStepBuilder<TOutput>;
  output<const TSchema extends ToolInputSchema>(
    schema: TSchema,
    options?: StructuredOutputOptions,
  ): LlmStepBuilder<SchemaOutput<TSchema>>;
  output(schema: string | ToolInputSchema, options?: StructuredOutputOptions): LlmStepBuilder<unknown> {
    if (typeof schema === "string") return this.#with({ output: schema });
    const output: StructuredOutput = defineStructuredOutput(schema, options, `llm("${this.model}").output()`);
    return this.#with({ output: inlineOutputId(output) });
  }

  /** How many answers not matching the output schema are sent back with their errors; default 2. */
  maxOutputRetries(count: number): LlmStepBuilder<TReply> {
    return this.#with({ maxOutputRetries: count });
  }

  /**
   * Streams the answer: the step makes the body an `LlmStream` at once (text deltas of every turn,
   * tool calls, tool results, the finish) and the route goes on; when the run ends, the answer
   * replaces it as the body and the usual headers are set. An `http:` route answers it as
   * server-sent events. With a provider made with `stream: true` the text arrives as the model
   * writes it; another model hands on each turn's text whole. `llmStreamOf(exchange)` finds it.
   */
  stream(): LlmStepBuilder<LlmStream>;
  /**
   * With `{ format: "ui-message" }` the body is the run as the AI SDK's UI message stream
   * (`UiMessageStream`): an `http:` route answers what `useChat` reads, tool calls and their
   * results included, and the step accepts `useChat`'s request body as the conversation.
   */
  stream(options: { format: "ui-message" }): LlmStepBuilder<UiMessageStream>;
  stream(options: { format: "parts" }): LlmStepBuilder<LlmStream>;
  stream(options?: { format: "parts" | "ui-message" }): LlmStepBuilder<LlmStream | UiMessageStream> {
    if (options?.format === "ui-message")
      return this.#with<UiMessageStream>({ stream: true, streamFormat: "ui-message" });
    return this.#with<LlmStream>({ stream: true });
  }

  /**
   * Makes the run durable: its state is written to the store of `llmPlugin({ durable: { store } })`
   * after every model turn and tool result, so it resumes on any instance after a crash, can wait
   * for a person's approval, and never repeats a recorded turn or tool result. The header
   * `llm.run.id` names the run (set it so a redelivered message resumes its run); a run that
   * parks hands on `{ runId, status: "parked", pending }` with header `llm.run.status` = "parked".
   */
  durable(enabled = true): LlmStepBuilder<TReply> {
    return this.#with({ durable: enabled });
  }

  /**
   * The budget of a conversation kept across requests: an exchange with header `llm.thread.id`
   * continues that thread's messages (from the store of `llmPlugin({ durable })`) and adds its own;
   * the oldest exchanges are dropped past `tokens` (estimated as a quarter of the JSON's length).
   */
  threadTokens(tokens: number): LlmStepBuilder<TReply> {
    return this.#with({ threadTokens: tokens });
  }

  /**
   * Budget of input plus output tokens of one run: checked before each model call (the
   * conversation's size estimated as a quarter of its JSON's length, plus `maxTokens`) and after it
   * (the usage reported); crossing it ends the run with header `llm.stopReason` = "budget" and
   * `llm.budget` = "maxTotalTokens".
   */
  maxTotalTokens(tokens: number): LlmStepBuilder<TReply> {
    return this.#with({ maxTotalTokens: tokens });
  }

  /** Budget of input tokens of one run (see `maxTotalTokens`). */
  maxInputTokens(tokens: number): LlmStepBuilder<TReply> {
    return this.#with({ maxInputTokens: tokens });
  }

  /** Budget of output tokens of one run (see `maxTotalTokens`). */
  maxOutputTokens(tokens: number): LlmStepBuilder<TReply> {
    return this.#with({ maxOutputTokens: tokens });
  }

  /** Budget of one run in US dollars, from the model's price in `llmPlugin({ prices })`. */
  maxCostUsd(dollars: number): LlmStepBuilder<TReply> {
    return this.#with({ maxCostUsd: dollars });
  }

  /** Longest tool result the model reads, in characters; a longer one is cut with a note. Default 32000. */
  maxToolResultChars(chars: number): LlmStepBuilder<TReply> {
    return this.#with({ maxToolResultChars: chars });
  }

  /**
   * Sends every tool call that failed (after the tool route's own retries) to this endpoint, a
   * dead letter channel: body `{ runId, routeId, exchangeId, toolName, callId, arguments, error }`.
   * The model still reads the error result.
   */
  toolDeadLetterUri(uri: string): LlmStepBuilder<TReply> {
    return this.#with({ toolDeadLetterUri: uri });
  }

  /** The tools the model may call, by registry name. */
  tools(...names: string[]): LlmStepBuilder<TReply> {
    return this.#with({ tools: names.flat() });
  }

  /** Every tool in the context's registry. */
  useAllTools(): LlmStepBuilder<TReply> {
    return this.#with({ tools: "*" });
  }

  maxIterations(count: number): LlmStepBuilder<TReply> {
    return this.#with({ maxIterations: count });
  }

  systemPrompt(text: string): LlmStepBuilder<TReply> {
    return this.#with({ systemPrompt: text });
  }

  temperature(value: number): LlmStepBuilder<TReply> {
    return this.#with({ temperature: value });
  }

  maxTokens(count: number): LlmStepBuilder<TReply> {
    return this.#with({ maxTokens: count });
  }

  /** A deadline for the whole step in ms. */
  timeout(ms: number): LlmStepBuilder<TReply> {
    return this.#with({ timeout: ms });
  }

  /** A deadline for each tool call in ms. */
  toolTimeout(ms: number): LlmStepBuilder<TReply> {
    return this.#with({ toolTimeout: ms });
  }

  parallelToolCalls(enabled = true): LlmStepBuilder<TReply> {
    return this.#with({ parallelToolCalls: enabled });
  }

  /** Caller headers that tool routes may see (none by default). */
  allowHeaders(...names: string[]): LlmStepBuilder<TReply> {
    return this.#with({ allowHeaders: names.flat() });
  }

  /** Put tool arguments and outputs in events (off by default). */
  includeContent(enabled = true): LlmStepBuilder<TReply> {
    return this.#with({ includeContent: enabled });
  }

  /**
   * What the model reads of a failed tool call: "safe" (default: internal URLs, addresses, paths and
   * class names removed unless the error declares `expose: true`) or "message" (everything).
   */
  toolErrors(policy: "safe" | "message"): LlmStepBuilder<TReply> {
    return this.#with({ toolErrors: policy });
  }

  /** The endpoint URI; option values are validated when a route using it is added. */
  uri(): LlmStepUri<TReply> {
    const query: string[] = [];
    for (const [name, value] of Object.entries(this.options)) {
      if (value === undefined) continue;
      const text = Array.isArray(value) ? value.join(",") : String(value);
      query.push(`${name}=${encodeURIComponent(text).replace(/%2C/g, ",")}`);
    }
    const uri = query.length === 0 ? `llm:${this.model}` : `llm:${this.model}?${query.join("&")}`;
    return uri as LlmStepUri<TReply>;
  }

  toString(): string {
    return this.uri();
  }
}

/** Starts an LLM step for a model configured in `llmPlugin({ models })`. */
export function llm(model: string): LlmStepBuilder<string> {
  return new LlmStepBuilder(model);
}
