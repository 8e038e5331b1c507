import { renderAnthropicTool } from "../adapter/render.js";
import type {
  AssistantMessage,
  ModelRequest,
  ModelResponse,
  ModelStopReason,
  ToolCall,
  ToolMessage,
} from "../model-types.js";
import type { Tool } from "../tool-types.js";
import { modelReply } from "./model-reply.js";
import { objectToolCall } from "./object-tool-call.js";
import { isWireObject, responseShapeError, type WireObject } from "./wire-shape.js";
import { anthropicUsage } from "./wire-usage.js";

const renderedTools = new WeakMap<Tool, unknown>();

interface WireMessage {
  role: "user" | "assistant";
  content: string | unknown[];
}

/** Builds the Messages API request body for a neutral request. */
export function toAnthropicBody(request: ModelRequest, model: string, defaultMaxTokens: number): WireObject {
  let system = request.system ?? "";
  const messages: WireMessage[] = [];
  for (const message of request.messages) {
    switch (message.role) {
      case "system":
        system = system === "" ? message.content : `${system}\n\n${message.content}`;
        break;
      case "user":
        appendUserText(messages, message.content);
        break;
      case "assistant": {
        const content = Array.isArray(message.raw) ? message.raw : rebuildContent(message);
        if (content.length > 0) messages.push({ role: "assistant", content });
        break;
      }
      case "tool":
        messages.push({ role: "user", content: toolResultBlocks(message) });
        break;
    }
  }
  const body: WireObject = { model, max_tokens: request.maxTokens ?? defaultMaxTokens, messages };
  if (system !== "") body.system = system;
  if (request.output !== undefined) {
    // The answer is a tool the model must call: alone when there are no other tools, else any tool.
    const answerTool = {
      name: request.output.name,
      description: request.output.description,
      input_schema: request.output.schema,
    };
    body.tools = [...request.tools.map(renderTool), answerTool];
    body.tool_choice =
      request.tools.length === 0
        ? { type: "tool", name: request.output.name }
        : { type: "any", ...(request.parallelToolCalls === false && { disable_parallel_tool_use: true }) };
  } else if (request.tools.length > 0) {
    body.tools = request.tools.map(renderTool);
    if (request.parallelToolCalls === false)
      body.tool_choice = { type: "auto", disable_parallel_tool_use: true };
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  return body;
}

function renderTool(tool: Tool): unknown {
  let rendered = renderedTools.get(tool);
  if (rendered === undefined) {
    rendered = renderAnthropicTool(tool);
    renderedTools.set(tool, rendered);
  }
  return rendered;
}

/** Text after tool results joins their user message (the results must come first in it). */
function appendUserText(messages: WireMessage[], text: string): void {
  const last = messages[messages.length - 1];
  if (last !== undefined && last.role === "user" && Array.isArray(last.content)) {
    last.content.push({ type: "text", text });
  } else {
    messages.push({ role: "user", content: text });
  }
}

function toolResultBlocks(message: ToolMessage): unknown[] {
  return message.results.map((result) => ({
    type: "tool_result",
    tool_use_id: result.callId,
    content: result.output,
    is_error: result.isError,
  }));
}

function rebuildContent(message: AssistantMessage): unknown[] {
  const blocks: unknown[] = [];
  if (message.content !== "") blocks.push({ type: "text", text: message.content });
  for (const call of message.toolCalls ?? []) {
    blocks.push({ type: "tool_use", id: call.id, name: call.name, input: callInput(call) });
  }
  return blocks;
}

function callInput(call: ToolCall): unknown {
  if (call.arguments !== undefined) return call.arguments;
  try {
    const parsed: unknown = JSON.parse(call.argumentsText);
    return isWireObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** Reads a Messages API reply; `where` names the reply in errors. */
export function parseAnthropicResponse(json: unknown, fallbackModel: string, where: string): ModelResponse {
  if (!isWireObject(json)) throw responseShapeError(where, "the reply", "a JSON object", json);
  const content = json.content;
  if (!Array.isArray(content))
    throw responseShapeError(where, "content", "an array of content blocks", content);
  let text = "";
  const toolCalls: ToolCall[] = [];
  content.forEach((block: unknown, index) => {
    if (!isWireObject(block)) throw responseShapeError(where, `content[${index}]`, "an object", block);
    if (block.type === "text" && typeof block.text === "string") {
      text += block.text;
    } else if (block.type === "tool_use") {
      if (typeof block.id !== "string")
        throw responseShapeError(where, `content[${index}].id`, "a string", block.id);
      if (typeof block.name !== "string") {
        throw responseShapeError(where, `content[${index}].name`, "a string", block.name);
      }
      toolCalls.push(objectToolCall(block.id, block.name, block.input ?? {}));
    }
  });
  const rawStopReason = typeof json.stop_reason === "string" ? json.stop_reason : "";
  return modelReply({
    responseId: json.id,
    text,
    toolCalls,
    rawStopReason,
    mapStopReason,
    usage: anthropicUsage(json.usage),
    model: typeof json.model === "string" && json.model !== "" ? json.model : fallbackModel,
    raw: content,
  });
}

export function mapStopReason(reason: string): ModelStopReason {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "tool_use":
      return "tool_calls";
    case "max_tokens":
      return "length";
    case "refusal":
      return "content_filter";
    default:
      return "other";
  }
}
