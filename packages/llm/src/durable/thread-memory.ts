import type { CheckpointStore } from "@routekit/core";
import { LlmError } from "../errors.js";
import { messageTokens } from "../governance/estimate-tokens.js";
import type { ChatMessage } from "../model-types.js";

/** The header naming a conversation that lasts across requests (see the durable agents guide). */
export const LLM_THREAD_ID_HEADER = "llm.thread.id";

/** Default budget of a kept conversation, in estimated tokens. */
export const DEFAULT_THREAD_TOKENS = 8_000;

interface ThreadState {
  messages: ChatMessage[];
}

const recordId = (threadId: string): string => `thread:${threadId}`;

/**
 * The newest messages within `budget` tokens, cut only before a user message so that no tool
 * answer is kept without the assistant turn that asked for it (and the latest user message stays).
 */
export function trimToBudget(messages: readonly ChatMessage[], budget: number): ChatMessage[] {
  let tokens = 0;
  let start = messages.length;
  for (let index = messages.length - 1; index >= 0; index--) {
    tokens += messageTokens(messages[index] as ChatMessage);
    if (tokens > budget) break;
    if (messages[index]?.role === "user") start = index;
  }
  if (start === messages.length) {
    // Not even the last exchange fits: keep it from its user message anyway.
    for (let index = messages.length - 1; index >= 0; index--) {
      if (messages[index]?.role === "user") return messages.slice(index);
    }
    return [];
  }
  return messages.slice(start);
}

/** The kept messages of thread `threadId` (none for a new thread). */
export async function readThread(store: CheckpointStore, threadId: string): Promise<ChatMessage[]> {
  const record = await store.get(recordId(threadId));
  const state = record?.state as ThreadState | undefined;
  if (record !== undefined && !Array.isArray(state?.messages)) {
    throw new LlmError(
      "RUN_STATE_INVALID",
      `thread '${threadId}': the store holds a record that is not a thread's messages`,
    );
  }
  return state?.messages ?? [];
}

/**
 * Adds a run's new messages (those after the `known` first ones of `conversation`) to thread
 * `threadId`, trimmed to `budget` tokens. Another request of the same thread that wrote first is
 * kept: the new messages go after it (each attempt reads the latest version).
 */
export async function appendToThread(
  store: CheckpointStore,
  threadId: string,
  conversation: readonly ChatMessage[],
  known: number,
  budget: number,
): Promise<void> {
  const added = conversation.slice(known);
  for (let attempt = 0; attempt < 10; attempt++) {
    const record = await store.get(recordId(threadId));
    const kept = (record?.state as ThreadState | undefined)?.messages ?? [];
    const state: ThreadState = { messages: trimToBudget([...kept, ...added], budget) };
    const written = await store.write({
      id: recordId(threadId),
      version: (record?.version ?? 0) + 1,
      status: "thread",
      owner: undefined,
      leaseUntil: undefined,
      updatedAt: Date.now(),
      state,
    });
    if (written) return;
  }
  throw new LlmError(
    "RUN_CONFLICT",
    `thread '${threadId}': other requests kept writing it; this request's messages were not kept`,
  );
}
