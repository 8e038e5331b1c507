import { LlmError } from "../errors.js";
import type { LanguageModel, ModelRequest, ModelResponse } from "../model-types.js";
import { parseAnthropicResponse } from "./anthropic-wire.js";
import { parseOpenAiResponse } from "./openai-wire.js";
import { describeWireValue, isWireObject } from "./wire-shape.js";

/** A recorded conversation: each turn holds the provider's reply JSON exactly as the wire returned it. */
export interface ReplayTranscript {
  provider: "openai" | "anthropic";
  model: string;
  turns: ReadonlyArray<{ response: unknown }>;
}

/** A model playing a transcript; `requests` holds every request it received. */
export interface ReplayModel extends LanguageModel {
  readonly requests: readonly ModelRequest[];
  /** Turns not played yet. */
  readonly remaining: number;
}

/**
 * Plays a recorded conversation turn by turn. Replies go through the live provider's parser,
 * and each request must answer the tool calls of the previous turn, in order.
 */
export function replayModel(transcript: ReplayTranscript): ReplayModel {
  const responses = parseTranscript(transcript);
  const name = `replayModel(${transcript.provider}/${transcript.model})`;
  const requests: ModelRequest[] = [];
  return {
    provider: transcript.provider,
    model: transcript.model,
    requiresApiKey: false,
    requests,
    get remaining() {
      return responses.length - requests.length;
    },
    async generate(request: ModelRequest): Promise<ModelResponse> {
      if (request.signal?.aborted) throw request.signal.reason;
      const turn = requests.length;
      requests.push({ ...request, messages: request.messages.slice() });
      const response = responses[turn];
      if (response === undefined) {
        throw new LlmError(
          "MODEL_REQUEST_FAILED",
          `${name}: request ${turn + 1} has no recorded turn: the transcript has ${responses.length}`,
        );
      }
      const previous = responses[turn - 1];
      if (previous !== undefined) checkFollows(name, turn, previous, request);
      return response;
    },
  };
}

function parseTranscript(transcript: ReplayTranscript): ModelResponse[] {
  const invalid = (path: string, expected: string, found: unknown) =>
    new LlmError(
      "OPTION_INVALID",
      `replayModel: ${path} must be ${expected}, got ${describeWireValue(found)}`,
    );
  if (!isWireObject(transcript))
    throw invalid("the transcript", "an object { provider, model, turns }", transcript);
  const { provider, model, turns } = transcript;
  if (provider !== "openai" && provider !== "anthropic") {
    throw invalid("transcript.provider", '"openai" or "anthropic"', provider);
  }
  if (typeof model !== "string" || model === "")
    throw invalid("transcript.model", "a non-empty string", model);
  if (!Array.isArray(turns) || turns.length === 0)
    throw invalid("transcript.turns", "a non-empty array", turns);
  const parse = provider === "openai" ? parseOpenAiResponse : parseAnthropicResponse;
  return turns.map((turn: unknown, index) => {
    if (!isWireObject(turn) || !("response" in turn)) {
      throw invalid(`transcript.turns[${index}]`, "an object { response }", turn);
    }
    return parse(turn.response, model, `replayModel: transcript.turns[${index}].response`);
  });
}

function checkFollows(name: string, turn: number, previous: ModelResponse, request: ModelRequest): void {
  const last = request.messages[request.messages.length - 1];
  const expected = previous.toolCalls.map((call) => call.id);
  if (expected.length === 0) {
    if (last?.role === "user") return;
    throw new LlmError(
      "MODEL_REQUEST_FAILED",
      `${name}: request ${turn + 1} must end with a user message (turn ${turn} asked for no tools), ` +
        `but it ends with ${last === undefined ? "no message" : `a ${last.role} message`}`,
    );
  }
  const answered = last?.role === "tool" ? last.results.map((result) => result.callId) : [];
  if (answered.length !== expected.length || answered.some((id, index) => id !== expected[index])) {
    throw new LlmError(
      "MODEL_REQUEST_FAILED",
      `${name}: request ${turn + 1} must answer the ${expected.length} tool call(s) recorded in turn ${turn} ` +
        `in order [${expected.join(", ")}], but it answers [${answered.join(", ")}]`,
    );
  }
}
