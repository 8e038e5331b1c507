export { type AnthropicMessagesOptions, anthropicMessages } from "./anthropic-messages.js";
export { type OpenAiChatOptions, openAiChat } from "./openai-chat.js";
export { type ReplayModel, type ReplayTranscript, replayModel } from "./replay-model.js";
