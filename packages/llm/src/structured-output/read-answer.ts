import type { ChatMessage, ModelResponse } from "../model-types.js";
import type { Tool } from "../tool-types.js";
import type { StructuredOutput } from "./structured-output.js";

/** A model turn read as a structured answer: JSON text, or the object an answer tool call carried. */
export interface StructuredAnswer {
  readonly answer: unknown;
  /** The id of the answer tool call (Anthropic), to be answered when the answer is refused. */
  readonly callId?: string;
}

/**
 * The answer in a model turn: its text when it asked for no tools, or the arguments of a lone call
 * of the answer tool. A turn asking for other tools is no answer yet (undefined).
 */
export function readAnswer(response: ModelResponse, output: StructuredOutput): StructuredAnswer | undefined {
  const calls = response.toolCalls;
  if (calls.length === 0) return { answer: response.text };
  const [call] = calls;
  if (calls.length === 1 && call !== undefined && call.name === output.name) {
    return { answer: call.arguments ?? call.argumentsText, callId: call.id };
  }
  return undefined;
}

/** What the model reads when its answer does not match: every failing path, and what to do. */
export function refusalMessage(
  output: StructuredOutput,
  answer: StructuredAnswer,
  problems: string,
): ChatMessage {
  const text =
    `Your answer does not match the required JSON schema of '${output.name}': ${problems}. ` +
    "Answer again with a JSON object matching the schema, and nothing else.";
  if (answer.callId === undefined) return { role: "user", content: text };
  return {
    role: "tool",
    results: [{ callId: answer.callId, name: output.name, output: text, isError: true }],
  };
}

/**
 * Stands for the answer tool among the step's tools, so a call of it next to other tool calls gets
 * an error result telling the model to answer alone once it has the other results.
 */
export function answerToolStandIn(output: StructuredOutput): Tool {
  const message = `call '${output.name}' alone, in a turn of its own, once you have the results of the other tools`;
  return {
    name: output.name,
    description: output.description,
    inputSchema: { type: "object" },
    source: "native",
    execute: async () => ({ output: message, isError: true }),
  };
}
