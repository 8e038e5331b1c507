import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolResult } from "@routekit/llm";

/**
 * An MCP `tools/call` result as a routekit `ToolResult`: the text blocks joined as `output` (other
 * blocks described in a line), `isError` kept, and the value behind it — `structuredContent` when
 * the server sent it, else the text — as the result's non-enumerable `value` (what
 * `context.tools.call` and the `mcp:` component resolve with).
 */
export function toToolResult(result: CallToolResult, server: string, tool: string): ToolResult {
  const blocks = Array.isArray(result.content) ? result.content : [];
  const texts = blocks.map(describeBlock);
  const structured = result.structuredContent;
  let output = texts.join("\n");
  if (output === "" && structured !== undefined) output = JSON.stringify(structured);
  if (result.isError === true) {
    return {
      output: output === "" ? `tool '${tool}' of MCP server '${server}' failed` : output,
      isError: true,
    };
  }
  const toolResult: ToolResult = { output, isError: false, metadata: { mcpServer: server, mcpTool: tool } };
  Object.defineProperty(toolResult, "value", {
    value: structured ?? output,
    enumerable: false,
    writable: true,
    configurable: true,
  });
  return toolResult;
}

function describeBlock(block: CallToolResult["content"][number]): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type} ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`;
    case "resource_link":
      return `[resource ${block.uri}${block.name ? ` (${block.name})` : ""}]`;
    case "resource":
      return "text" in block.resource ? block.resource.text : `[resource ${block.resource.uri}]`;
    default:
      return `[${(block as { type: string }).type} content]`;
  }
}
