import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type ClientCapabilities,
  CreateMessageRequestSchema,
  type CreateMessageResult,
  ElicitRequestSchema,
  type ElicitResult,
  ErrorCode,
} from "@modelcontextprotocol/sdk/types.js";
import type { RouteContext } from "@routekit/core";
import { sendSettled } from "@routekit/core/internal";
import type { McpElicitationAnswer, McpSamplingAnswer } from "./answer-types.js";

export type { McpElicitationAnswer, McpSamplingAnswer };

/** What the client declares and answers, by the options given. */
export interface ServerRequestAnswers {
  readonly elicitation: McpElicitationAnswer | undefined;
  readonly sampling: McpSamplingAnswer | undefined;
}

/** The capabilities a client with these answers declares. */
export function clientCapabilities(answers: ServerRequestAnswers): ClientCapabilities {
  return {
    ...(answers.elicitation === undefined ? undefined : { elicitation: { form: { applyDefaults: true } } }),
    ...(answers.sampling === undefined ? undefined : { sampling: {} }),
  };
}

/** Installs the handlers of the server's requests the options answer. */
export function answerServerRequests(
  client: Client,
  context: RouteContext,
  answers: ServerRequestAnswers,
): void {
  const { elicitation, sampling } = answers;
  if (elicitation !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      if (typeof elicitation === "function") return elicitation(request.params);
      const reply = await ask(context, elicitation, request.params, extra.signal);
      if (typeof reply === "object" && reply !== null && "action" in reply) return reply as ElicitResult;
      return { action: "accept", content: (reply ?? {}) as ElicitResult["content"] };
    });
  }
  if (sampling !== undefined) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
      if (typeof sampling === "function") return sampling(request.params);
      const reply = await ask(context, sampling, request.params, extra.signal);
      if (typeof reply === "object" && reply !== null && "content" in reply)
        return reply as CreateMessageResult;
      const text = typeof reply === "string" ? reply : JSON.stringify(reply);
      return { role: "assistant", model: "routekit", content: { type: "text", text } };
    });
  }
}

/** Sends the server's request to route `uri` and resolves with the reply (a failure is a JSON-RPC error). */
async function ask(context: RouteContext, uri: string, body: unknown, signal: AbortSignal): Promise<unknown> {
  const exchange = context.createExchange({ body, pattern: "InOut", signal });
  await sendSettled(context.endpoint(uri), exchange);
  if (exchange.error !== undefined) {
    throw Object.assign(new Error(`the route answering the server failed: ${exchange.error.message}`), {
      code: ErrorCode.InternalError,
    });
  }
  return exchange.body;
}
