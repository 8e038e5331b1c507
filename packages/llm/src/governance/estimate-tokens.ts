import type { ChatMessage } from "../model-types.js";

// A message's estimate is kept with it: the budget check and the quota of a run read the same
// messages on every call of the conversation, and a message is not changed once appended.
const estimates = new WeakMap<ChatMessage, number>();

/** A message's size in tokens, estimated as a quarter of its JSON's length (computed once per message). */
export function messageTokens(message: ChatMessage): number {
  let tokens = estimates.get(message);
  if (tokens === undefined) {
    tokens = Math.ceil(JSON.stringify(message).length / 4);
    estimates.set(message, tokens);
  }
  return tokens;
}

/** A conversation's size in tokens: the sum of its messages' estimates. */
export function conversationTokens(messages: readonly ChatMessage[]): number {
  let tokens = 0;
  for (const message of messages) tokens += messageTokens(message);
  return tokens;
}
