import { TOOL_NAME_PATTERN } from "@routekit/llm/tool";

/** The registry name of a server's tool: the prefix, then the name with characters routekit refuses as '_'. */
export function localToolName(prefix: string, remoteName: string): string {
  const name = `${prefix}${remoteName}`.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
  return TOOL_NAME_PATTERN.test(name) ? name : `${prefix}tool`.slice(0, 64);
}
