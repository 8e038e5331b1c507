import type { EndpointAddress, Exchange, RouteContext, RoutekitEvents } from "@routekit/core";
import { RoutekitError } from "@routekit/core";
import { messageOf } from "@routekit/core/internal";
import { LLM_EVENT_TYPES, LLM_STREAM_PROPERTY } from "./agent-run-contract.js";
import { createDurable } from "./durable/create-durable.js";
import {
  type DurableLoopSettings,
  type DurableRunner,
  LLM_RUN_STATUS_HEADER,
} from "./durable/durable-runner.js";
import { type DeadLetterSender, deadLetterSender } from "./governance/dead-letter-tools.js";
import { type LlmSettings, modelsOf, settingsOf } from "./llm-settings.js";
import { asMessages, readInput, type StepThread, threadOf } from "./llm-step-input.js";
import type { LlmStepOptions } from "./llm-step-options.js";
import { type RunLetters, reportRun, tenantOf, waitForLetters } from "./llm-step-result.js";
import type { ChatMessage, LanguageModel } from "./model-types.js";
import { resolveStepOutput } from "./structured-output/step-output.js";
import type { StructuredOutput } from "./structured-output/structured-output.js";
import { checkGovernance } from "./tool-loop/check-loop-options.js";
import { runToolLoop } from "./tool-loop/run-tool-loop.js";
import { type LlmStream, streamToolLoop } from "./tool-loop/stream-tool-loop.js";
import type { ToolErrorPolicy } from "./tool-loop/tool-error-policy.js";
import type { RunToolLoopOptions, ToolLoopEvent } from "./tool-loop/tool-loop-types.js";
import type { Tool } from "./tool-types.js";
import { toUiMessageStream } from "./ui-message/ui-message-stream.js";

/** The address of an `llm:` endpoint, its options parsed by `llmComponent`'s schema. */
type LlmStepAddress = EndpointAddress<LlmStepOptions>;
type ToolErrorLogger = (error: Error, toolName: string, callId: string) => void;

/** The budgets and limits of every run of a step, from its options and the context's settings. */
function stepGovernance(options: LlmStepOptions, settings: LlmSettings) {
  return {
    maxTotalTokens: options.maxTotalTokens,
    maxInputTokens: options.maxInputTokens,
    maxOutputTokens: options.maxOutputTokens,
    maxCostUsd: options.maxCostUsd,
    prices: settings.prices,
    maxToolResultChars: options.maxToolResultChars ?? settings.maxToolResultChars,
    quota: settings.quota,
  };
}

/** The model named by the endpoint's path, or a `URI_INVALID` error naming the configured ones. */
function modelOf(address: LlmStepAddress, context: RouteContext): LanguageModel {
  const models = modelsOf(context);
  const configured = models.get(address.path);
  if (configured === undefined) {
    const known = [...models.keys()];
    throw new RoutekitError(
      "URI_INVALID",
      `Endpoint '${address.uri}': no model named '${address.path}'; configured models: ${known.join(", ") || "(none: install llmPlugin({ models }))"}`,
    );
  }
  return configured;
}

/** One `llm:` endpoint: its model, tools and settings, the runs it makes, and the streams still running. */
export class LlmEndpoint {
  readonly #uri: string;
  readonly #context: RouteContext;
  readonly #options: LlmStepOptions;
  readonly #model: LanguageModel;
  readonly #wanted: readonly string[];
  readonly #allTools: boolean;
  readonly #allowed: readonly string[];
  // The context's one settings object (llmPlugin sets its fields): read at each run.
  readonly #settings: LlmSettings;
  readonly #output: StructuredOutput | undefined;
  readonly #governance: ReturnType<typeof stepGovernance>;
  readonly #deadLetters: DeadLetterSender | undefined;
  readonly #durable: DurableRunner | undefined;
  // The tools resolved for every run while the registry is unchanged (a run only reads them);
  // kept only while the endpoint is started, when it listens to the registry's changes.
  #resolved: Map<string, Tool> | undefined;
  #unlisten: (() => void) | undefined;
  // The warning for a failed tool call, one function per route using this endpoint (not one a run).
  readonly #toolErrorLoggers = new Map<string | undefined, ToolErrorLogger>();
  // Streams still running after their route ended: cancelled when the context stops.
  readonly #live = new Set<LlmStream>();

  constructor(address: LlmStepAddress, context: RouteContext) {
    const options = address.options;
    this.#uri = address.uri;
    this.#context = context;
    this.#options = options;
    this.#model = modelOf(address, context);
    this.#wanted = options.tools ?? [];
    this.#allTools = this.#wanted.includes("*");
    this.#allowed = options.allowHeaders ?? [];
    this.#settings = settingsOf(context);
    this.#output =
      options.output === undefined ? undefined : resolveStepOutput(context, options.output, address.uri);
    this.#governance = stepGovernance(options, this.#settings);
    checkGovernance(
      { model: this.#model, tools: new Map(), ...this.#governance },
      `Endpoint '${address.uri}'`,
    );
    const deadLetterUri = options.toolDeadLetterUri ?? this.#settings.toolDeadLetterUri;
    this.#deadLetters =
      deadLetterUri === undefined ? undefined : deadLetterSender(context, address.uri, deadLetterUri);
    this.#durable =
      options.durable === true
        ? createDurable(context, address.uri, options, this.#output !== undefined, this.#deadLetters, () =>
            this.#durableSettings(),
          )
        : undefined;
  }

  start(): void {
    this.#model.check?.();
    if (!this.#allTools) this.#resolveTools();
    this.#unlisten ??= this.#context.tools.onChange(() => {
      this.#resolved = undefined;
    });
  }

  stop(): void {
    this.#unlisten?.();
    this.#unlisten = undefined;
    this.#resolved = undefined;
    for (const stream of this.#live)
      stream.cancel(new DOMException(`${this.#uri}: the context stopped`, "AbortError"));
  }

  async send(exchange: Exchange): Promise<void> {
    const letters = this.#deadLetters?.forRun(exchange, this.#toolErrorLogger(exchange.routeId));
    if (letters === undefined) return this.#runExchange(exchange, undefined);
    try {
      await this.#runExchange(exchange, letters);
    } finally {
      await letters.delivered();
    }
  }

  #resolveTools(): Map<string, Tool> {
    const tools = this.#context.tools.resolve(this.#allTools ? "*" : this.#wanted);
    return new Map(tools.map((tool) => [tool.name, tool]));
  }

  #toolsOfRun(): Map<string, Tool> {
    if (this.#resolved !== undefined) return this.#resolved;
    const tools = this.#resolveTools();
    if (this.#unlisten !== undefined) this.#resolved = tools;
    return tools;
  }

  #toolErrorLogger(routeId: string | undefined): ToolErrorLogger {
    let logger = this.#toolErrorLoggers.get(routeId);
    if (logger === undefined) {
      logger = (error, toolName, callId) =>
        this.#context.logger.warn(
          `Route '${routeId}' ${this.#uri}: tool '${toolName}' (call ${callId}) failed: ${messageOf(error)}`,
        );
      this.#toolErrorLoggers.set(routeId, logger);
    }
    return logger;
  }

  #toolErrors(): ToolErrorPolicy {
    return (this.#options.toolErrors as ToolErrorPolicy | undefined) ?? this.#settings.toolErrors;
  }

  /** What a durable run (also one resumed without an exchange) runs with. */
  #durableSettings(): DurableLoopSettings {
    const options = this.#options;
    return {
      model: this.#model,
      tools: this.#toolsOfRun(),
      system: options.systemPrompt,
      maxIterations: options.maxIterations,
      temperature: options.temperature,
      maxTokens: options.maxTokens,
      parallelToolCalls: options.parallelToolCalls,
      toolTimeoutMs: options.toolTimeout,
      timeoutMs: options.timeout,
      toolErrors: this.#toolErrors(),
      onToolError: this.#toolErrorLogger(undefined),
      ...this.#governance,
    };
  }

  /** One run of the step: the body and headers it sets from the run's result. */
  async #runExchange(exchange: Exchange, letters: RunLetters | undefined): Promise<void> {
    const thread = await threadOf(this.#context, exchange, this.#uri, this.#options.threadTokens);
    const given = readInput(exchange, this.#uri);
    const input = thread === undefined ? given : [...thread.history, ...asMessages(given)];
    const loopOptions = this.#loopOptions(exchange, input, letters);
    if (this.#durable !== undefined) {
      const outcome = await this.#durable.run(exchange, input, loopOptions, thread?.memory);
      if (outcome.status === "parked") {
        exchange.headers[LLM_RUN_STATUS_HEADER] = "parked";
        exchange.body = { runId: outcome.runId, status: "parked", pending: outcome.pending };
        return;
      }
      exchange.headers[LLM_RUN_STATUS_HEADER] = "completed";
      exchange.body = outcome.result.text;
      reportRun(this.#context, this.#settings, exchange, outcome.result);
      return;
    }
    if (this.#options.stream === true) return this.#runStreamed(exchange, loopOptions, letters, thread);
    const result = await runToolLoop(loopOptions);
    if (thread !== undefined) await thread.keep(result.messages);
    exchange.body = this.#output === undefined ? result.text : result.output;
    reportRun(this.#context, this.#settings, exchange, result);
  }

  /** The tool loop's options of one run of the exchange. */
  #loopOptions(
    exchange: Exchange,
    input: string | ChatMessage[],
    letters: RunLetters | undefined,
  ): RunToolLoopOptions {
    const options = this.#options;
    const events = this.#context.events;
    const routeId = exchange.routeId;
    const forward = hasListener(events, LLM_EVENT_TYPES)
      ? (event: ToolLoopEvent) => {
          const { type, ...rest } = event;
          if (events.has(type)) events.emit(type, { ...rest, routeId, exchangeId: exchange.id } as never);
        }
      : undefined;
    const headers: Record<string, unknown> = {};
    for (const name of this.#allowed) if (name in exchange.headers) headers[name] = exchange.headers[name];
    const output = this.#output;
    return {
      model: this.#model,
      tools: this.#toolsOfRun(),
      input,
      system: options.systemPrompt,
      maxIterations: options.maxIterations,
      temperature: options.temperature,
      maxTokens: options.maxTokens,
      parallelToolCalls: options.parallelToolCalls,
      toolTimeoutMs: options.toolTimeout,
      timeoutMs: options.timeout,
      signal: exchange.signal,
      toolContext: { headers },
      onEvent: forward,
      includeContent: options.includeContent,
      toolErrors: this.#toolErrors(),
      ...(output !== undefined && { output, maxOutputRetries: options.maxOutputRetries }),
      onToolError: letters?.onToolError ?? this.#toolErrorLogger(routeId),
      ...this.#governance,
      tenant: tenantOf(exchange, this.#settings.tenantHeader),
    };
  }

  /** A streamed run: the body is the stream now, and the answer once the run settled. */
  #runStreamed(
    exchange: Exchange,
    loopOptions: RunToolLoopOptions,
    letters: RunLetters | undefined,
    thread: StepThread | undefined,
  ): void {
    const { events } = this.#context;
    const routeId = exchange.routeId;
    if (events.has("llm-stream-part")) {
      loopOptions.onPart = (part) =>
        events.emit("llm-stream-part", { part, routeId, exchangeId: exchange.id });
    }
    const uiMessages = this.#options.streamFormat === "ui-message";
    // The user's own page renders tool calls: their arguments and outputs go in its parts.
    if (uiMessages) loopOptions.partContent = true;
    const stream = streamToolLoop(loopOptions);
    this.#live.add(stream);
    const streamed = uiMessages ? toUiMessageStream(stream) : stream;
    exchange.body = streamed;
    exchange.properties[LLM_STREAM_PROPERTY] = stream;
    // The answer is handed on once the run's failed tool calls were delivered, as without a stream.
    const settled = letters === undefined ? stream.result : waitForLetters(stream.result, letters);
    settled.then(
      (result) => {
        this.#live.delete(stream);
        thread?.keep(result.messages).catch((error: unknown) => {
          const reason = messageOf(error);
          this.#context.logger.warn(
            `Route '${routeId}' ${this.#uri}: the thread's messages were not kept: ${reason}`,
          );
        });
        // The answer replaces the stream unless a later step already replaced it.
        if (exchange.body === streamed)
          exchange.body = this.#output === undefined ? result.text : result.output;
        reportRun(this.#context, this.#settings, exchange, result);
      },
      (error: unknown) => {
        this.#live.delete(stream);
        // A cancelled run (its reader stopped, the context stopped) is not a failure to report.
        if (error instanceof DOMException && error.name === "AbortError") return;
        const reason = messageOf(error);
        this.#context.logger.warn(`Route '${routeId}' ${this.#uri}: the streamed run failed: ${reason}`);
      },
    );
  }
}

/** True when any of `types` has a listener. */
function hasListener(events: RouteContext["events"], types: readonly (keyof RoutekitEvents)[]): boolean {
  for (const type of types) if (events.has(type)) return true;
  return false;
}
