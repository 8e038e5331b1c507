import { LlmError } from "../errors.js";
import type { AssistantMessage, ChatMessage, ToolCall, ToolCallResult } from "../model-types.js";

/** The most messages and text a `useChat` request may carry into a run. */
export const UI_MESSAGE_LIMITS = Object.freeze({ messages: 500, chars: 1_000_000 });

interface UiPart {
  type: string;
  text?: unknown;
  toolCallId?: unknown;
  toolName?: unknown;
  input?: unknown;
  output?: unknown;
  errorText?: unknown;
  state?: unknown;
}

interface UiMessage {
  role: unknown;
  parts: unknown;
}

/** True for the body `useChat` posts: `{ messages: [{ role, parts }, ...], ... }`. */
export function isUiChatRequest(body: unknown): body is { messages: UiMessage[] } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const messages = (body as { messages?: unknown }).messages;
  return (
    Array.isArray(messages) &&
    messages.length > 0 &&
    messages.every(
      (message) =>
        typeof message === "object" && message !== null && Array.isArray((message as UiMessage).parts),
    )
  );
}

/**
 * The conversation of a `useChat` request: user and system text, and each assistant message's
 * steps (its text, the tool calls it made and their outputs) as assistant and tool messages.
 * Bounded by `UI_MESSAGE_LIMITS`; anything else is an `OPTION_INVALID` naming the message.
 */
export function fromUiMessages(request: { messages: readonly UiMessage[] }, where: string): ChatMessage[] {
  const { messages } = request;
  if (messages.length > UI_MESSAGE_LIMITS.messages) {
    throw new LlmError(
      "OPTION_INVALID",
      `${where}: the request has ${messages.length} messages, more than ${UI_MESSAGE_LIMITS.messages}`,
    );
  }
  const conversation: ChatMessage[] = [];
  let chars = 0;
  const count = (text: string): string => {
    chars += text.length;
    if (chars > UI_MESSAGE_LIMITS.chars) {
      throw new LlmError(
        "OPTION_INVALID",
        `${where}: the request's messages hold more than ${UI_MESSAGE_LIMITS.chars} characters`,
      );
    }
    return text;
  };
  messages.forEach((message, index) => {
    const parts = message.parts as UiPart[];
    if (message.role === "user" || message.role === "system") {
      conversation.push({ role: message.role, content: count(textOf(parts)) });
    } else if (message.role === "assistant") {
      for (const step of stepsOf(parts)) conversation.push(...assistantStep(step, count));
    } else {
      throw new LlmError(
        "OPTION_INVALID",
        `${where}: message ${index} has role ${JSON.stringify(String(message.role).slice(0, 20))}; expected user, assistant or system`,
      );
    }
  });
  return conversation;
}

function textOf(parts: readonly UiPart[]): string {
  return parts
    .filter((part) => part?.type === "text" && typeof part.text === "string")
    .map((part) => part.text as string)
    .join("");
}

/** An assistant message's parts split at `step-start`. */
function stepsOf(parts: readonly UiPart[]): UiPart[][] {
  const steps: UiPart[][] = [[]];
  for (const part of parts) {
    if (part?.type === "step-start") steps.push([]);
    else steps.at(-1)?.push(part);
  }
  return steps.filter((step) => step.length > 0);
}

function assistantStep(parts: readonly UiPart[], count: (text: string) => string): ChatMessage[] {
  const calls: ToolCall[] = [];
  const results: ToolCallResult[] = [];
  for (const part of parts) {
    const isTool =
      typeof part?.type === "string" && (part.type.startsWith("tool-") || part.type === "dynamic-tool");
    if (!isTool || typeof part.toolCallId !== "string") continue;
    const name = part.type === "dynamic-tool" ? String(part.toolName) : part.type.slice("tool-".length);
    calls.push({ id: part.toolCallId, name, argumentsText: count(JSON.stringify(part.input ?? {})) });
    const failed = part.state === "output-error";
    if (part.state === "output-available" || failed) {
      const output = failed
        ? JSON.stringify({ error: String(part.errorText ?? "") })
        : JSON.stringify(part.output ?? null);
      results.push({ callId: part.toolCallId, name, output: count(output), isError: failed });
    }
  }
  const assistant: AssistantMessage = { role: "assistant", content: count(textOf(parts)) };
  if (calls.length > 0) assistant.toolCalls = calls;
  // A call without its output (the page never got it) is left out with its turn's tool message.
  if (calls.length > 0 && results.length !== calls.length) {
    delete assistant.toolCalls;
    return assistant.content === "" ? [] : [assistant];
  }
  return results.length === 0 ? [assistant] : [assistant, { role: "tool", results }];
}
