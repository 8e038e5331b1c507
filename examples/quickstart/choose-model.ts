import { readFileSync } from "node:fs";
import {
  anthropicMessages,
  type LanguageModel,
  type ModelRequest,
  openAiChat,
  type ReplayTranscript,
  replayModel,
} from "@routekit/llm";

/** The inventory URL the shipped transcript was written against. */
export const RECORDED_BASE_URL = "http://127.0.0.1:47123";
const TRANSCRIPT_FILE = new URL("./transcript.openai.json", import.meta.url);

/** The model the demo uses and how to describe it. */
export interface ChosenModel {
  readonly model: LanguageModel;
  readonly replaying: boolean;
  readonly description: string;
}

/**
 * A live model when `OPENAI_API_KEY`/`OPENAI_BASE_URL` or `ANTHROPIC_API_KEY` is set; otherwise
 * the shipped transcript, replayed. `baseUrl` is where the inventory API really listens: when it
 * differs from the recorded one, the recorded URLs are rewritten to it.
 */
export function chooseModel(baseUrl: string): ChosenModel {
  const environment = process.env;
  if (environment.OPENAI_API_KEY !== undefined || environment.OPENAI_BASE_URL !== undefined) {
    const model = openAiChat({ model: environment.OPENAI_MODEL ?? "gpt-4o-mini" });
    return { model, replaying: false, description: `live: OpenAI-compatible API, model ${model.model}` };
  }
  if (environment.ANTHROPIC_API_KEY !== undefined) {
    const model = anthropicMessages({ model: environment.ANTHROPIC_MODEL ?? "claude-3-5-haiku-latest" });
    return { model, replaying: false, description: `live: Anthropic Messages API, model ${model.model}` };
  }
  const text = readFileSync(TRANSCRIPT_FILE, "utf8").replaceAll(RECORDED_BASE_URL, baseUrl);
  const transcript = JSON.parse(text) as ReplayTranscript;
  return {
    model: replayEachConversation(transcript),
    replaying: true,
    description:
      "REPLAYING examples/quickstart/transcript.openai.json (OpenAI Chat Completions responses; " +
      "no network, no API key). Set OPENAI_API_KEY (and optionally OPENAI_BASE_URL) or ANTHROPIC_API_KEY " +
      "to ask a live model.",
  };
}

/**
 * The replay model plays a transcript once; this starts a fresh replay for every new
 * conversation (a request holding only the user's question), so `--serve` can answer repeatedly.
 */
function replayEachConversation(transcript: ReplayTranscript): LanguageModel {
  let current = replayModel(transcript);
  return {
    provider: current.provider,
    model: current.model,
    requiresApiKey: false,
    generate(request: ModelRequest) {
      const isNewConversation = request.messages.filter((message) => message.role !== "system").length === 1;
      if (isNewConversation && current.requests.length > 0) {
        current = replayModel(transcript);
      }
      return current.generate(request);
    },
  };
}
