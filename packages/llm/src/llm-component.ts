import {
  defineComponent,
  type Exchange,
  type RouteContext,
  RoutekitError,
  type RoutekitEvents,
} from "@routekit/core";
import "./as-llm-tool.js";
import {
  LLM_EVENT_TYPES,
  LLM_HEADERS,
  LLM_MESSAGES_PROPERTY,
  LLM_STREAM_PROPERTY,
} from "./agent-run-contract.js";
import { type DurableLoopSettings, DurableRunner, LLM_RUN_STATUS_HEADER } from "./durable/durable-runner.js";
import { requireDurable } from "./durable/durable-settings.js";
import type { ThreadMemory } from "./durable/run-state.js";
import {
  appendToThread,
  DEFAULT_THREAD_TOKENS,
  LLM_THREAD_ID_HEADER,
  readThread,
} from "./durable/thread-memory.js";
import { LlmError } from "./errors.js";
import { type DeadLetterSender, deadLetterSender } from "./governance/dead-letter-tools.js";
import { llmSpendOf } from "./governance/llm-spend.js";
import type { PriceTable } from "./governance/model-prices.js";
import type { ProviderQuota } from "./governance/provider-quota.js";
import "./governance/run-completed-event.js";
// The events this module emits are declared on core's RoutekitEvents there.
import type {} from "./llm-events.js";
import type { ChatMessage, LanguageModel } from "./model-types.js";
import { resolveStepOutput } from "./structured-output/step-output.js";
import { checkGovernance } from "./tool-loop/check-loop-options.js";
import { runToolLoop } from "./tool-loop/run-tool-loop.js";
import { type LlmStream, streamToolLoop } from "./tool-loop/stream-tool-loop.js";
import type { ToolErrorPolicy } from "./tool-loop/tool-error-policy.js";
import type { RunToolLoopOptions, ToolLoopEvent, ToolLoopResult } from "./tool-loop/tool-loop-types.js";
import type { Tool } from "./tool-types.js";
import { toUiMessageStream } from "./ui-message/ui-message-stream.js";
import { fromUiMessages, isUiChatRequest } from "./ui-message/ui-messages.js";

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

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : typeof value;
}

/** Reads the step's input: a prompt string or a message list. */
function readInput(exchange: Exchange, uri: string): string | ChatMessage[] {
  const body = exchange.body;
  if (typeof body === "string") {
    if (body.trim() === "") throw new LlmError("OPTION_INVALID", `${uri}: the body is an empty prompt`);
    return body;
  }
  if (
    Array.isArray(body) &&
    body.every((message) => typeof message === "object" && message !== null && "role" in message)
  ) {
    return body as ChatMessage[];
  }
  // The body the AI SDK's useChat posts: its UI messages become the conversation.
  if (isUiChatRequest(body)) return fromUiMessages(body, uri);
  throw new LlmError(
    "OPTION_INVALID",
    `${uri}: expected the body to be a prompt string, a list of messages ({ role, content }) or a useChat request ({ messages: [{ role, parts }] }), found ${describe(body)}`,
  );
}

/**
 * `llm:MODEL?tools=a,b&maxIterations=6` — the LLM step: body in = the prompt or a message list,
 * body out = the final assistant text; headers out = provider, model, tokens, stop reason,
 * iterations. Tool calls are dispatched through the context's tool registry.
 */
export const llmComponent = defineComponent({
  scheme: "llm",
  // The model is called over the network; each send is an agent run (otel, the console).
  traits: { inProcess: false, agent: true },
  options: {
    tools: { type: "list", description: "tool names, or * for all" },
    maxIterations: { type: "integer", default: 8, min: 1, max: 1000 },
    systemPrompt: { type: "string" },
    temperature: { type: "number", min: 0, max: 2 },
    maxTokens: { type: "integer", min: 1 },
    timeout: { type: "integer", min: 1 },
    toolTimeout: { type: "integer", min: 1 },
    parallelToolCalls: { type: "boolean", default: true },
    allowHeaders: { type: "list" },
    includeContent: { type: "boolean", default: false },
    toolErrors: { type: "enum", values: ["safe", "message"] },
    output: { type: "string", description: "a schema registered in llmPlugin({ schemas })" },
    maxOutputRetries: { type: "integer", default: 2, min: 0, max: 10 },
    stream: { type: "boolean", default: false, description: "hand the answer on as an LlmStream" },
    streamFormat: {
      type: "enum",
      values: ["parts", "ui-message"],
      description: "with stream=true: routekit's parts, or the AI SDK's UI message stream",
    },
    durable: {
      type: "boolean",
      default: false,
      description: "checkpoint the run in llmPlugin's durable store",
    },
    maxTotalTokens: { type: "integer", min: 1, description: "budget of input plus output tokens of a run" },
    maxInputTokens: { type: "integer", min: 1, description: "budget of input tokens of a run" },
    maxOutputTokens: { type: "integer", min: 1, description: "budget of output tokens of a run" },
    maxCostUsd: { type: "number", min: 0, description: "budget of a run in US dollars (needs a price)" },
    maxToolResultChars: {
      type: "integer",
      min: 1,
      description: "longest tool result the model reads, in characters (default 32000)",
    },
    toolDeadLetterUri: {
      type: "string",
      description: "endpoint receiving each failed tool call (run id, tool, arguments, error)",
    },
    threadTokens: {
      type: "integer",
      min: 1,
      description: "budget of a kept conversation (header llm.thread.id), in estimated tokens",
    },
  },
  createEndpoint(address, context) {
    const options = address.options;
    const models = modelsOf(context);
    const configured = models.get(address.path);
    if (configured === undefined) {
      const known = [...models.keys()];
      throw new RoutekitError(
        "URI_INVALID",
        `Endpoint '${address.uri}': no model named '${address.path}'; configured models: ${known.join(", ") || "(none: install llmPlugin({ models }))"}`,
      );
    }
    const model: LanguageModel = configured;
    const wanted = options.tools ?? [];
    const allTools = wanted.includes("*");
    const resolveTools = (): Map<string, Tool> => {
      const tools = context.tools.resolve(allTools ? "*" : wanted);
      return new Map(tools.map((tool) => [tool.name, tool]));
    };
    // The tools resolved for every run while the registry is unchanged (a run only reads them);
    // kept only while the endpoint is started, when it listens to the registry's changes.
    let resolved: Map<string, Tool> | undefined;
    let unlisten: (() => void) | undefined;
    const toolsOfRun = (): Map<string, Tool> => {
      if (resolved !== undefined) return resolved;
      const tools = resolveTools();
      if (unlisten !== undefined) resolved = tools;
      return tools;
    };
    const allowed = options.allowHeaders ?? [];
    // The context's one settings object (llmPlugin sets its fields): read at each run.
    const settings = settingsOf(context);
    const output =
      options.output === undefined ? undefined : resolveStepOutput(context, options.output, address.uri);
    const governance = {
      maxTotalTokens: options.maxTotalTokens,
      maxInputTokens: options.maxInputTokens,
      maxOutputTokens: options.maxOutputTokens,
      maxCostUsd: options.maxCostUsd,
      prices: settings.prices,
      maxToolResultChars: options.maxToolResultChars ?? settings.maxToolResultChars,
      quota: settings.quota,
    };
    checkGovernance({ model, tools: new Map(), ...governance }, `Endpoint '${address.uri}'`);
    const deadLetterUri = options.toolDeadLetterUri ?? settings.toolDeadLetterUri;
    const deadLetters =
      deadLetterUri === undefined ? undefined : deadLetterSender(context, address.uri, deadLetterUri);
    // The warning for a failed tool call, one function per route using this endpoint (not one a run).
    const toolErrorLoggers = new Map<
      string | undefined,
      (error: Error, toolName: string, callId: string) => void
    >();
    const toolErrorLogger = (routeId: string | undefined) => {
      let logger = toolErrorLoggers.get(routeId);
      if (logger === undefined) {
        logger = (error, toolName, callId) =>
          context.logger.warn(
            `Route '${routeId}' ${address.uri}: tool '${toolName}' (call ${callId}) failed: ${error.name}: ${error.message}`,
          );
        toolErrorLoggers.set(routeId, logger);
      }
      return logger;
    };
    // Streams still running after their route ended: cancelled when the context stops.
    const live = new Set<LlmStream>();
    const durable =
      options.durable === true
        ? createDurable(context, address.uri, options, output !== undefined, deadLetters, () => ({
            model,
            tools: toolsOfRun(),
            system: options.systemPrompt,
            maxIterations: options.maxIterations,
            temperature: options.temperature,
            maxTokens: options.maxTokens,
            parallelToolCalls: options.parallelToolCalls,
            toolTimeoutMs: options.toolTimeout,
            timeoutMs: options.timeout,
            toolErrors: (options.toolErrors as ToolErrorPolicy | undefined) ?? settings.toolErrors,
            onToolError: toolErrorLogger(undefined),
            ...governance,
          }))
        : undefined;
    /** One run of the step: the body and headers it sets from the run's result. */
    async function runExchange(exchange: Exchange, letters: RunLetters | undefined): Promise<void> {
      const onToolError = letters?.onToolError;
      const thread = await threadOf(context, exchange, address.uri, options.threadTokens);
      const given = readInput(exchange, address.uri);
      const input = thread === undefined ? given : [...thread.history, ...asMessages(given)];
      const events = context.events;
      const routeId = exchange.routeId;
      const forward = hasListener(events, LLM_EVENT_TYPES)
        ? (event: ToolLoopEvent) => {
            const { type, ...rest } = event;
            if (events.has(type)) events.emit(type, { ...rest, routeId, exchangeId: exchange.id } as never);
          }
        : undefined;
      const headers: Record<string, unknown> = {};
      for (const name of allowed) if (name in exchange.headers) headers[name] = exchange.headers[name];
      const loopOptions: RunToolLoopOptions = {
        model,
        tools: toolsOfRun(),
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
        toolErrors: (options.toolErrors as ToolErrorPolicy | undefined) ?? settings.toolErrors,
        ...(output !== undefined && { output, maxOutputRetries: options.maxOutputRetries }),
        onToolError: onToolError ?? toolErrorLogger(routeId),
        ...governance,
        tenant: tenantOf(exchange, settings.tenantHeader),
      };
      if (durable !== undefined) {
        const outcome = await durable.run(exchange, input, loopOptions, thread?.memory);
        if (outcome.status === "parked") {
          exchange.headers[LLM_RUN_STATUS_HEADER] = "parked";
          exchange.body = { runId: outcome.runId, status: "parked", pending: outcome.pending };
          return;
        }
        exchange.headers[LLM_RUN_STATUS_HEADER] = "completed";
        exchange.body = outcome.result.text;
        reportRun(exchange, outcome.result);
        return;
      }
      if (options.stream === true) {
        if (events.has("llm-stream-part")) {
          loopOptions.onPart = (part) =>
            events.emit("llm-stream-part", { part, routeId, exchangeId: exchange.id });
        }
        const uiMessages = options.streamFormat === "ui-message";
        // The user's own page renders tool calls: their arguments and outputs go in its parts.
        if (uiMessages) loopOptions.partContent = true;
        const stream = streamToolLoop(loopOptions);
        live.add(stream);
        const streamed = uiMessages ? toUiMessageStream(stream) : stream;
        exchange.body = streamed;
        exchange.properties[LLM_STREAM_PROPERTY] = stream;
        // The answer is handed on once the run's failed tool calls were delivered, as without a stream.
        const settled = letters === undefined ? stream.result : waitForLetters(stream.result, letters);
        settled.then(
          (result) => {
            live.delete(stream);
            thread?.keep(result.messages).catch((error: unknown) => {
              const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
              context.logger.warn(
                `Route '${routeId}' ${address.uri}: the thread's messages were not kept: ${reason}`,
              );
            });
            // The answer replaces the stream unless a later step already replaced it.
            if (exchange.body === streamed)
              exchange.body = output === undefined ? result.text : result.output;
            reportRun(exchange, result);
          },
          (error: unknown) => {
            live.delete(stream);
            // A cancelled run (its reader stopped, the context stopped) is not a failure to report.
            if (error instanceof DOMException && error.name === "AbortError") return;
            const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
            context.logger.warn(`Route '${routeId}' ${address.uri}: the streamed run failed: ${reason}`);
          },
        );
        return;
      }
      const result = await runToolLoop(loopOptions);
      if (thread !== undefined) await thread.keep(result.messages);
      exchange.body = output === undefined ? result.text : result.output;
      reportRun(exchange, result);
    }

    /** The headers of a run's result, its spend in the context's accounting, and its completed event. */
    function reportRun(exchange: Exchange, result: ToolLoopResult): void {
      setResultHeaders(exchange, result);
      const tenant = tenantOf(exchange, settings.tenantHeader);
      llmSpendOf(context).record({
        routeId: exchange.routeId,
        tenant,
        usage: result.usage,
        cost: result.cost,
        stoppedByBudget: result.budget !== undefined,
      });
      if (!context.events.has("llm-run-completed")) return;
      context.events.emit("llm-run-completed", {
        routeId: exchange.routeId,
        exchangeId: exchange.id,
        tenant,
        provider: result.provider,
        model: result.model,
        usage: { ...result.usage },
        ...(result.cost === undefined ? undefined : { cost: result.cost }),
        stopReason: result.stopReason,
        ...(result.budget === undefined ? undefined : { budget: result.budget }),
        iterations: result.iterations,
        toolCalls: result.toolCalls,
      });
    }

    return {
      uri: address.uri,
      start() {
        model.check?.();
        if (!allTools) resolveTools();
        unlisten ??= context.tools.onChange(() => {
          resolved = undefined;
        });
      },
      stop() {
        unlisten?.();
        unlisten = undefined;
        resolved = undefined;
        for (const stream of live)
          stream.cancel(new DOMException(`${address.uri}: the context stopped`, "AbortError"));
      },
      async send(exchange) {
        const letters = deadLetters?.forRun(exchange, toolErrorLogger(exchange.routeId));
        if (letters === undefined) return runExchange(exchange, undefined);
        try {
          await runExchange(exchange, letters);
        } finally {
          await letters.delivered();
        }
      },
    };
  },
});

/** The tenant a run's spend is summed under: the named header's value, a string of at most 256 characters. */
function tenantOf(exchange: Exchange, header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = exchange.headers[header];
  if (typeof value !== "string" || value === "") return undefined;
  return value.length > 256 ? value.slice(0, 256) : value;
}

/** The durable side of an endpoint with `durable=true`, refused with streaming or an output schema. */
function createDurable(
  context: RouteContext,
  uri: string,
  options: { stream?: boolean },
  hasOutput: boolean,
  deadLetters: DeadLetterSender | undefined,
  settings: () => DurableLoopSettings,
): DurableRunner {
  if (options.stream === true || hasOutput) {
    throw new LlmError(
      "OPTION_INVALID",
      `Endpoint '${uri}': durable=true cannot be combined with ${options.stream === true ? "stream=true" : "output"} (a durable run checkpoints whole turns and answers text)`,
    );
  }
  // A run resumed without an exchange sends its failed tool calls to the same endpoint.
  const lettersOfResumedRun =
    deadLetters === undefined
      ? undefined
      : (runId: string, routeId: string | undefined) =>
          deadLetters.forResumedRun(runId, routeId, (error, toolName, callId) =>
            context.logger.warn(
              `${uri}: tool '${toolName}' (call ${callId}) of resumed run ${runId} failed: ${error.name}: ${error.message}`,
            ),
          );
  return new DurableRunner(context, uri, settings, lettersOfResumedRun);
}

/** The dead letters of one run: what a failed tool call calls, and the wait for their delivery. */
interface RunLetters {
  onToolError: NonNullable<RunToolLoopOptions["onToolError"]>;
  delivered(): Promise<void>;
}

/** A streamed run's result once its dead letters were delivered (a failed run fails after them too). */
async function waitForLetters(result: Promise<ToolLoopResult>, letters: RunLetters): Promise<ToolLoopResult> {
  try {
    return await result;
  } finally {
    await letters.delivered();
  }
}

/** A prompt as the first message of a conversation; a message list as it is. */
function asMessages(input: string | ChatMessage[]): ChatMessage[] {
  return typeof input === "string" ? [{ role: "user", content: input }] : input;
}

/** The kept conversation of the exchange's `llm.thread.id`, and how to keep the run's messages in it. */
async function threadOf(
  context: RouteContext,
  exchange: Exchange,
  uri: string,
  tokens: number | undefined,
): Promise<
  { history: ChatMessage[]; memory: ThreadMemory; keep(messages: ChatMessage[]): Promise<void> } | undefined
> {
  const threadId = exchange.headers[LLM_THREAD_ID_HEADER];
  if (threadId === undefined) return undefined;
  if (typeof threadId !== "string" || threadId === "" || threadId.length > 256) {
    throw new LlmError(
      "OPTION_INVALID",
      `Endpoint '${uri}': header '${LLM_THREAD_ID_HEADER}' must be a non-empty string of at most 256 characters (found ${typeof threadId === "string" ? `${threadId.length} characters` : typeof threadId})`,
    );
  }
  const { store } = requireDurable(context, `Endpoint '${uri}': header '${LLM_THREAD_ID_HEADER}'`);
  const history = await readThread(store, threadId);
  const memory: ThreadMemory = {
    id: threadId,
    known: history.length,
    tokens: tokens ?? DEFAULT_THREAD_TOKENS,
  };
  return {
    history,
    memory,
    keep: (messages) => appendToThread(store, threadId, messages, memory.known, memory.tokens),
  };
}

/** True when any of `types` has a listener. */
function hasListener(events: RouteContext["events"], types: readonly (keyof RoutekitEvents)[]): boolean {
  for (const type of types) if (events.has(type)) return true;
  return false;
}

/** The headers and the conversation property the step sets from a run's result. */
function setResultHeaders(exchange: Exchange, result: ToolLoopResult): void {
  exchange.headers[LLM_HEADERS.provider] = result.provider;
  exchange.headers[LLM_HEADERS.model] = result.model;
  exchange.headers[LLM_HEADERS.tokensIn] = result.usage.inputTokens;
  exchange.headers[LLM_HEADERS.tokensOut] = result.usage.outputTokens;
  exchange.headers[LLM_HEADERS.stopReason] = result.stopReason;
  exchange.headers[LLM_HEADERS.iterations] = result.iterations;
  exchange.headers[LLM_HEADERS.toolCalls] = result.toolCalls;
  if (result.cost !== undefined) exchange.headers[LLM_HEADERS.costUsd] = result.cost;
  if (result.budget !== undefined) exchange.headers[LLM_HEADERS.budget] = result.budget.budget;
  exchange.properties[LLM_MESSAGES_PROPERTY] = result.messages;
}
