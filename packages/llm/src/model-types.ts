/**
 * The neutral conversation model every provider translates to and from its wire format.
 * A conversation is a list of `ChatMessage`; a provider turns a `ModelRequest` into one
 * HTTP call and the reply into a `ModelResponse`.
 */
import type { JsonSchema, Tool } from "./tool-types.js";

/** A tool call the model asked for. */
export interface ToolCall {
  /** The provider's id for the call; every id must be answered on the next turn. */
  id: string;
  /** The tool name as the model wrote it (it may name no known tool). */
  name: string;
  /** The arguments as raw JSON text, exactly as received (it may be invalid JSON). */
  argumentsText: string;
  /** The arguments already parsed, when the provider sends an object (Anthropic) rather than text. */
  arguments?: unknown;
}

/** The answer to one tool call, sent back to the model. */
export interface ToolCallResult {
  callId: string;
  name: string;
  output: string;
  isError: boolean;
}

/** Instructions for the model; providers without a system role move it to their system field. */
export interface SystemMessage {
  role: "system";
  content: string;
}

/** What the user said. */
export interface UserMessage {
  role: "user";
  content: string;
}

/** What the model said, with the tool calls it asked for. */
export interface AssistantMessage {
  role: "assistant";
  content: string;
  toolCalls?: ToolCall[];
  /**
   * The provider's message as received (the OpenAI message object, the Anthropic content
   * blocks), replayed verbatim on the next turn to the same provider.
   */
  raw?: unknown;
}

/** The answers to every tool call of the previous assistant message, in call order. */
export interface ToolMessage {
  role: "tool";
  results: ToolCallResult[];
}

/** One message of a conversation. */
export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** One call to a language model. */
export interface ModelRequest {
  messages: ChatMessage[];
  /** Instructions sent before the messages. */
  system?: string;
  tools: Tool[];
  temperature?: number;
  maxTokens?: number;
  /** Whether the model may ask for several tool calls in one turn (sent only when tools exist). */
  parallelToolCalls?: boolean;
  /** Cancels the call (and its retries) when it fires. */
  signal?: AbortSignal;
  /** A deadline for each HTTP attempt, overriding the provider's `timeoutMs`. */
  timeoutMs?: number;
  /**
   * The final answer must be a JSON object matching `schema`: OpenAI gets a `json_schema`
   * `response_format`, Anthropic an answer tool named `name` it is made to call, other models
   * answer with JSON text.
   */
  output?: ModelOutputFormat;
  /**
   * Receives the answer as it arrives, when the model streams (`stream: true`): its text, the
   * reasoning a provider streams (Anthropic thinking blocks, OpenAI-compatible `reasoning_content`),
   * and each tool call's arguments as they are written. A model that does not stream never calls
   * it. It must not throw.
   */
  onDelta?: (delta: ModelDelta) => void;
  /**
   * Receives each tool call as soon as its arguments are complete, while the answer keeps
   * streaming (Anthropic: its `tool_use` block stopped; OpenAI: a later call began and these
   * arguments are whole JSON, or the finish reason came). The same object is in the response's
   * `toolCalls`. A model that does not stream never calls it. It must not throw.
   */
  onToolCall?: (call: ToolCall) => void;
}

/** A piece of the answer's text, as a streaming model sends it. */
export interface ModelTextDelta {
  type: "text-delta";
  text: string;
}

/** A piece of the model's reasoning (Anthropic `thinking_delta`, OpenAI-compatible `reasoning_content`). */
export interface ModelReasoningDelta {
  type: "reasoning-delta";
  text: string;
}

/** The model began writing a tool call: its id and name are known, its arguments follow. */
export interface ModelToolInputStart {
  type: "tool-input-start";
  callId: string;
  toolName: string;
}

/** A fragment of a tool call's arguments (JSON text), as the model writes them. */
export interface ModelToolInputDelta {
  type: "tool-input-delta";
  callId: string;
  text: string;
}

/** What a streaming model hands on while it answers. */
export type ModelDelta = ModelTextDelta | ModelReasoningDelta | ModelToolInputStart | ModelToolInputDelta;

/** The format a structured answer must have. */
export interface ModelOutputFormat {
  name: string;
  description: string;
  /** A JSON Schema whose root is `type: "object"`. */
  schema: JsonSchema;
}

/** Why the model stopped, in neutral terms; `rawStopReason` keeps the provider's word. */
export type ModelStopReason = "stop" | "tool_calls" | "length" | "content_filter" | "other";

/** Token counts of one call (or, summed, of a whole loop). */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  /** Input tokens the provider served from its prompt cache (part of `inputTokens`), when it says. */
  cachedInputTokens?: number;
  /** Input tokens the provider wrote to its prompt cache (part of `inputTokens`; Anthropic), when it says. */
  cacheWriteInputTokens?: number;
}

/** What a language model answered. */
export interface ModelResponse {
  /** The text the model wrote this turn (empty when it only asked for tools). */
  text: string;
  toolCalls: ToolCall[];
  stopReason: ModelStopReason;
  rawStopReason: string;
  usage: TokenUsage;
  /** The model that answered, as the provider reports it (the requested model when it names none). */
  model: string;
  /** The provider's id of the response (OpenAI `id`, Anthropic `message.id`), when it sends one. */
  responseId?: string;
  /** The assistant message to append to the conversation. */
  assistant: AssistantMessage;
}

/** A language model: one provider, one model name. Providers are plain objects made by functions. */
export interface LanguageModel {
  readonly provider: string;
  readonly model: string;
  readonly requiresApiKey: boolean;
  generate(request: ModelRequest): Promise<ModelResponse>;
  /** Throws `API_KEY_MISSING` (or another configuration error) so a context fails at start. */
  check?(): void;
}
