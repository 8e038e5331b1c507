/**
 * Test helpers of @routekit/llm ("@routekit/llm/testing"): a model that plays a script.
 */
import { LlmError } from "./errors.js";
import type { LanguageModel, ModelRequest, ModelResponse, ModelStopReason, ToolCall } from "./model-types.js";
import { objectToolCall } from "./providers/object-tool-call.js";

/** A tool call in a script; `arguments` given as a string is sent as raw JSON text (it may be invalid). */
export interface ScriptedToolCall {
  name: string;
  arguments: unknown;
  /** Default `call_<n>`, numbered across the whole script. */
  id?: string;
}

/** What the scripted model answers to one request. */
export type ScriptedAnswer =
  | { text: string; toolCalls?: undefined; stopReason?: ModelStopReason; usage?: ScriptedUsage }
  | { toolCalls: ScriptedToolCall[]; text?: string; stopReason?: ModelStopReason; usage?: ScriptedUsage };

/** A script step: an answer, or a function of the request that returns one. */
export type ScriptedStep =
  | ScriptedAnswer
  | ((request: ModelRequest) => ScriptedAnswer | Promise<ScriptedAnswer>);

interface ScriptedUsage {
  inputTokens: number;
  outputTokens: number;
}

/** A model that answers from a script and records every request it received. */
export interface ScriptedModel extends LanguageModel {
  /** Every request received, with a copy of its message list as it was at the call. */
  readonly requests: readonly ModelRequest[];
}

/** Builds a model answering request n with step n; a request past the end of the script is an error. */
export function scriptedModel(
  steps: readonly ScriptedStep[],
  options: { provider?: string; model?: string } = {},
): ScriptedModel {
  if (!Array.isArray(steps)) {
    throw new LlmError("OPTION_INVALID", `scriptedModel: steps must be an array, got ${typeof steps}`);
  }
  const provider = options.provider ?? "scripted";
  const model = options.model ?? "scripted-model";
  const requests: ModelRequest[] = [];
  let callCount = 0;
  return {
    provider,
    model,
    requiresApiKey: false,
    requests,
    async generate(request: ModelRequest): Promise<ModelResponse> {
      if (request.signal?.aborted) throw request.signal.reason;
      const index = requests.length;
      requests.push({ ...request, messages: request.messages.slice() });
      const step = steps[index];
      if (step === undefined) {
        throw new LlmError(
          "MODEL_REQUEST_FAILED",
          `scriptedModel: request ${index + 1} has no step: the script has ${steps.length}`,
        );
      }
      const answer = typeof step === "function" ? await step(request) : step;
      const toolCalls: ToolCall[] = (answer.toolCalls ?? []).map((call: ScriptedToolCall) => {
        const id = call.id ?? `call_${++callCount}`;
        if (typeof call.arguments === "string") return { id, name: call.name, argumentsText: call.arguments };
        return objectToolCall(id, call.name, call.arguments);
      });
      const text = answer.text ?? "";
      return {
        text,
        toolCalls,
        stopReason: answer.stopReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
        rawStopReason: answer.stopReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
        usage: answer.usage ?? { inputTokens: 0, outputTokens: 0 },
        model,
        assistant:
          toolCalls.length > 0
            ? { role: "assistant", content: text, toolCalls }
            : { role: "assistant", content: text },
      };
    },
  };
}
