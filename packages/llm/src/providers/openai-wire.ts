import { renderOpenAiTool } from "../adapter/render.js";
import type {
  AssistantMessage,
  ModelRequest,
  ModelResponse,
  ModelStopReason,
  ToolCall,
} from "../model-types.js";
import type { Tool } from "../tool-types.js";
import { modelReply } from "./model-reply.js";
import { openAiResponseFormat } from "./openai-response-format.js";
import { isWireObject, responseShapeError, type WireObject } from "./wire-shape.js";
import { openAiUsage } from "./wire-usage.js";

/** Options of the Chat Completions body that come from the provider rather than the request. */
export interface OpenAiBodyOptions {
  model: string;
  maxTokensParameter: "max_tokens" | "max_completion_tokens";
}

const renderedTools = new WeakMap<Tool, unknown>();

/** Builds the Chat Completions request body for a neutral request. */
export function toOpenAiBody(request: ModelRequest, options: OpenAiBodyOptions): WireObject {
  const body: WireObject = { model: options.model, messages: toOpenAiMessages(request) };
  if (request.tools.length > 0) {
    body.tools = request.tools.map(renderTool);
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.maxTokens !== undefined) body[options.maxTokensParameter] = request.maxTokens;
  if (request.output !== undefined) body.response_format = openAiResponseFormat(request.output);
  return body;
}

/**
 * The text of `JSON.stringify(toOpenAiBody(request, options))`, with each tool's definition
 * written once per tool instead of once per request: the tools are most of a small request, and
 * the same in every turn. Like its compiled validator, a tool's definition is taken as it was
 * first sent.
 */
export function toOpenAiBodyText(request: ModelRequest, options: OpenAiBodyOptions): string {
  let text = `{"model":${JSON.stringify(options.model)},"messages":${JSON.stringify(toOpenAiMessages(request))}`;
  const { tools } = request;
  if (tools.length > 0) {
    text += ',"tools":[';
    for (let index = 0; index < tools.length; index++) {
      if (index > 0) text += ",";
      text += renderToolText(tools[index] as Tool);
    }
    text += "]";
    if (request.parallelToolCalls !== undefined)
      text += `,"parallel_tool_calls":${JSON.stringify(request.parallelToolCalls)}`;
  }
  if (request.temperature !== undefined) text += `,"temperature":${JSON.stringify(request.temperature)}`;
  if (request.maxTokens !== undefined)
    text += `,${JSON.stringify(options.maxTokensParameter)}:${JSON.stringify(request.maxTokens)}`;
  if (request.output !== undefined)
    text += `,"response_format":${JSON.stringify(openAiResponseFormat(request.output))}`;
  return `${text}}`;
}

const renderedToolTexts = new WeakMap<Tool, string>();

function renderToolText(tool: Tool): string {
  let text = renderedToolTexts.get(tool);
  if (text === undefined) {
    text = JSON.stringify(renderTool(tool));
    renderedToolTexts.set(tool, text);
  }
  return text;
}

function renderTool(tool: Tool): unknown {
  let rendered = renderedTools.get(tool);
  if (rendered === undefined) {
    rendered = renderOpenAiTool(tool);
    renderedTools.set(tool, rendered);
  }
  return rendered;
}

function toOpenAiMessages(request: ModelRequest): unknown[] {
  const messages: unknown[] = [];
  if (request.system !== undefined && request.system !== "") {
    messages.push({ role: "system", content: request.system });
  }
  for (const message of request.messages) {
    switch (message.role) {
      case "system":
      case "user":
        messages.push({ role: message.role, content: message.content });
        break;
      case "assistant":
        messages.push(isOpenAiAssistant(message.raw) ? message.raw : rebuildAssistant(message));
        break;
      case "tool":
        for (const result of message.results) {
          messages.push({ role: "tool", tool_call_id: result.callId, content: result.output });
        }
        break;
    }
  }
  return messages;
}

function isOpenAiAssistant(raw: unknown): boolean {
  return isWireObject(raw) && raw.role === "assistant";
}

function rebuildAssistant(message: AssistantMessage): WireObject {
  const calls = message.toolCalls;
  if (calls === undefined || calls.length === 0) return { role: "assistant", content: message.content };
  return {
    role: "assistant",
    content: message.content === "" ? null : message.content,
    tool_calls: calls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.argumentsText },
    })),
  };
}

/**
 * Reads a Chat Completions reply. Tool arguments stay raw text (parsed later by whoever runs the
 * tools), so invalid JSON from the model is never a parse failure here. `where` names the reply
 * in errors.
 */
export function parseOpenAiResponse(json: unknown, fallbackModel: string, where: string): ModelResponse {
  if (!isWireObject(json)) throw responseShapeError(where, "the reply", "a JSON object", json);
  const choices = json.choices;
  if (!Array.isArray(choices) || choices.length === 0) {
    throw responseShapeError(where, "choices", "a non-empty array", choices);
  }
  const choice: unknown = choices[0];
  if (!isWireObject(choice)) throw responseShapeError(where, "choices[0]", "an object", choice);
  const message = choice.message;
  if (!isWireObject(message)) throw responseShapeError(where, "choices[0].message", "an object", message);
  const text = readContent(message.content, where);
  const toolCalls = readToolCalls(message.tool_calls, where);
  const rawStopReason = typeof choice.finish_reason === "string" ? choice.finish_reason : "";
  return modelReply({
    responseId: json.id,
    text,
    toolCalls,
    rawStopReason,
    mapStopReason: mapFinishReason,
    usage: openAiUsage(json.usage),
    model: typeof json.model === "string" && json.model !== "" ? json.model : fallbackModel,
    raw: message,
  });
}

function readContent(content: unknown, where: string): string {
  if (typeof content === "string") return content;
  if (content === null || content === undefined) return "";
  if (Array.isArray(content)) {
    let text = "";
    for (const part of content) if (isWireObject(part) && typeof part.text === "string") text += part.text;
    return text;
  }
  throw responseShapeError(where, "choices[0].message.content", "a string or null", content);
}

function readToolCalls(calls: unknown, where: string): ToolCall[] {
  if (calls === undefined || calls === null) return [];
  if (!Array.isArray(calls))
    throw responseShapeError(where, "choices[0].message.tool_calls", "an array", calls);
  return calls.map((call: unknown, index) => {
    const path = `choices[0].message.tool_calls[${index}]`;
    if (!isWireObject(call)) throw responseShapeError(where, path, "an object", call);
    if (typeof call.id !== "string") throw responseShapeError(where, `${path}.id`, "a string", call.id);
    const fn = call.function;
    if (!isWireObject(fn)) throw responseShapeError(where, `${path}.function`, "an object", fn);
    if (typeof fn.name !== "string")
      throw responseShapeError(where, `${path}.function.name`, "a string", fn.name);
    const args = fn.arguments;
    if (typeof args === "string") return { id: call.id, name: fn.name, argumentsText: args };
    if (args === undefined || args === null) return { id: call.id, name: fn.name, argumentsText: "" };
    // Some compatible servers send the arguments as an object rather than JSON text.
    return { id: call.id, name: fn.name, argumentsText: JSON.stringify(args), arguments: args };
  });
}

export function mapFinishReason(reason: string): ModelStopReason {
  switch (reason) {
    case "stop":
      return "stop";
    case "tool_calls":
    case "function_call":
      return "tool_calls";
    case "length":
      return "length";
    case "content_filter":
      return "content_filter";
    default:
      return "other";
  }
}
