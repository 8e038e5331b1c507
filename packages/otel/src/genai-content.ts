/**
 * Message content in the shapes the GenAI conventions give `gen_ai.input.messages`,
 * `gen_ai.output.messages` and `gen_ai.system_instructions` (role + parts), as JSON text: span
 * attributes hold no nested objects. Recorded only with `recordContent: true`.
 */

/** Longest content attribute kept, in characters; longer text is cut and says so. */
export const MAX_CONTENT_LENGTH = 16384;

function cut(text: string): string {
  return text.length <= MAX_CONTENT_LENGTH ? text : `${text.slice(0, MAX_CONTENT_LENGTH)}…[truncated]`;
}

/** JSON of any value (text stays text), never throwing: cycles and BigInts are described instead. */
export function safeJson(value: unknown): string {
  if (typeof value === "string") return cut(value);
  try {
    return cut(JSON.stringify(value) ?? String(value));
  } catch (error) {
    return `[not serialisable: ${error instanceof Error ? error.message : String(error)}]`;
  }
}

type Part = Record<string, unknown>;
interface Message {
  role: string;
  parts: Part[];
  finish_reason?: string;
}

function text(content: unknown): Part {
  return { type: "text", content: typeof content === "string" ? content : safeJson(content) };
}

function toolCallParts(calls: unknown): Part[] {
  if (!Array.isArray(calls)) return [];
  return calls.map((call: { id?: unknown; name?: unknown; argumentsText?: unknown }) => ({
    type: "tool_call",
    id: call.id,
    name: call.name,
    arguments: call.argumentsText,
  }));
}

function messageOf(value: unknown): Message {
  const message = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const role = typeof message.role === "string" ? message.role : "user";
  if (role === "tool" && Array.isArray(message.results)) {
    return {
      role,
      parts: message.results.map((result: { callId?: unknown; output?: unknown }) => ({
        type: "tool_call_response",
        id: result.callId,
        result: result.output,
      })),
    };
  }
  const parts: Part[] = [];
  if (message.content !== undefined && message.content !== "") parts.push(text(message.content));
  return { role, parts: [...parts, ...toolCallParts(message.toolCalls)] };
}

/** The messages sent on one model call (a chat span's `gen_ai.input.messages`). */
export function chatInputMessages(messages: readonly unknown[]): string {
  return safeJson(messages.map(messageOf));
}

/** The assistant turn one model call produced (a chat span's `gen_ai.output.messages`). */
export function chatOutputMessages(message: unknown, finishReason: string | undefined): string {
  const turn = messageOf(message);
  if (finishReason !== undefined) turn.finish_reason = finishReason;
  return safeJson([turn]);
}

/** The llm step's input (a prompt or a message list) as `gen_ai.input.messages`. */
export function inputMessages(body: unknown): string {
  const messages = Array.isArray(body) ? body.map(messageOf) : [{ role: "user", parts: [text(body)] }];
  return safeJson(messages);
}

/** The llm step's answer as `gen_ai.output.messages`. */
export function outputMessages(answer: unknown, finishReason: string | undefined): string {
  const message: Message = { role: "assistant", parts: [text(answer)] };
  if (finishReason !== undefined) message.finish_reason = finishReason;
  return safeJson([message]);
}

/** A system prompt as `gen_ai.system_instructions`. */
export function systemInstructions(prompt: string): string {
  return safeJson([{ type: "text", content: prompt }]);
}
