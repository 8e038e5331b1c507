import type { PromptMessage } from "@modelcontextprotocol/sdk/types.js";
import { defineVerb, installVerbs } from "@routekit/core/internal";
import { RoutekitMcpError } from "../errors.js";
import {
  checkedCompleters,
  type McpCompleter,
  type McpPromptArgument,
  type McpPromptAspect,
  verbPlace,
} from "./catalog.js";
import { isMcpContent, type McpContent } from "./content.js";

/** Options of `asMcpPrompt`. */
export interface AsMcpPromptOptions {
  title?: string;
  description?: string;
  /** The prompt's arguments (strings); `required` ones must be given by the client. */
  arguments?: readonly McpPromptArgument[];
  /** Completion of argument values (`completion/complete`), by argument name. */
  complete?: Record<string, McpCompleter>;
}

/** One message of a prompt route's reply: a role and one part (a string is text). */
export interface McpPromptReplyMessage {
  role: "user" | "assistant";
  content: McpContent | string;
}

/**
 * What a prompt route replies: a string (one user message), an MCP content part (`mcpImage`,
 * `mcpResource`, ...; one user message), or a list of those and of `{ role, content }` messages.
 */
export type McpPromptReply = string | McpContent | ReadonlyArray<string | McpContent | McpPromptReplyMessage>;

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    /**
     * Serves this route as the MCP prompt `name`: `prompts/get` sends it the arguments (an object
     * of strings) and its reply is the messages (see `McpPromptReply`). Must follow `from(...)`.
     */
    asMcpPrompt(name: string, options?: AsMcpPromptOptions): RouteDsl<Record<string, string>>;
  }
}

const PROMPT_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

installVerbs({
  asMcpPrompt: defineVerb({
    record: (recorder, name: string, options: AsMcpPromptOptions = {}) => {
      const where = verbPlace(recorder, "asMcpPrompt");
      if (typeof name !== "string" || !PROMPT_NAME.test(name)) {
        throw new RoutekitMcpError(
          "ROUTES_INVALID",
          `${where}: asMcpPrompt expects a name matching ${PROMPT_NAME} (found ${JSON.stringify(name)})`,
        );
      }
      if (options === null || typeof options !== "object") {
        throw new RoutekitMcpError(
          "ROUTES_INVALID",
          `${where}: asMcpPrompt('${name}') options must be an object`,
        );
      }
      if (recorder.route.aspects.mcpPrompt !== undefined) {
        throw new RoutekitMcpError("ROUTES_INVALID", `${where}: asMcpPrompt() is given twice`);
      }
      const promptArguments = options.arguments ?? [];
      if (
        !Array.isArray(promptArguments) ||
        !promptArguments.every((argument) => typeof argument?.name === "string")
      ) {
        throw new RoutekitMcpError(
          "ROUTES_INVALID",
          `${where}: asMcpPrompt('${name}') option 'arguments' must be a list of { name, description?, required? }`,
        );
      }
      const names = promptArguments.map((argument) => argument.name);
      const aspect: McpPromptAspect = {
        name,
        title: options.title,
        description: options.description,
        arguments: promptArguments,
        complete: checkedCompleters(options.complete, names, `${where}: asMcpPrompt('${name}')`),
      };
      recorder.route.aspects.mcpPrompt = aspect;
      return undefined;
    },
  }),
});

/** A prompt route's reply as `prompts/get` messages; throws a message naming what was found. */
export function promptMessages(name: string, reply: unknown): PromptMessage[] {
  const parts = Array.isArray(reply) ? reply : [reply];
  return parts.map((part: unknown, index) => {
    if (typeof part === "string") return { role: "user", content: { type: "text", text: part } };
    if (isMcpContent(part)) return { role: "user", content: part as PromptMessage["content"] };
    const message = part as Partial<McpPromptReplyMessage> | null;
    if (
      typeof message === "object" &&
      message !== null &&
      (message.role === "user" || message.role === "assistant") &&
      (typeof message.content === "string" || isMcpContent(message.content))
    ) {
      const content =
        typeof message.content === "string"
          ? { type: "text" as const, text: message.content }
          : message.content;
      return { role: message.role, content: content as PromptMessage["content"] };
    }
    throw new RoutekitMcpError(
      "CALL_FAILED",
      `prompt '${name}': reply part ${index} must be a string, an MCP content part (mcpImage, mcpResource, ...) or { role: "user" | "assistant", content } (found ${part === null ? "null" : typeof part})`,
    );
  });
}
