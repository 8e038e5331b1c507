import type { Exchange, RouteContext } from "@routekit/core";
import { requireDurable } from "./durable/durable-settings.js";
import type { ThreadMemory } from "./durable/run-state.js";
import {
  appendToThread,
  DEFAULT_THREAD_TOKENS,
  LLM_THREAD_ID_HEADER,
  readThread,
} from "./durable/thread-memory.js";
import { LlmError } from "./errors.js";
import type { ChatMessage } from "./model-types.js";
import { fromUiMessages, isUiChatRequest } from "./ui-message/ui-messages.js";

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : typeof value;
}

/** Reads the step's input: a prompt string or a message list. */
export function readInput(exchange: Exchange, uri: string): string | ChatMessage[] {
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

/** A prompt as the first message of a conversation; a message list as it is. */
export function asMessages(input: string | ChatMessage[]): ChatMessage[] {
  return typeof input === "string" ? [{ role: "user", content: input }] : input;
}

/** The kept conversation of a run: its messages so far, its memory, and how to keep the run's messages. */
export interface StepThread {
  history: ChatMessage[];
  memory: ThreadMemory;
  keep(messages: ChatMessage[]): Promise<void>;
}

/** The kept conversation of the exchange's `llm.thread.id`, and how to keep the run's messages in it. */
export async function threadOf(
  context: RouteContext,
  exchange: Exchange,
  uri: string,
  tokens: number | undefined,
): Promise<StepThread | undefined> {
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
