import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import { startLoopbackServer as startShared } from "@routekit/test-support";

/** A request the server received, with its body parsed as JSON when it is JSON. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** What the server answers; "hang" never answers (until the client gives up or the server closes). */
export type Reply =
  | { status?: number; headers?: Record<string, string>; json?: unknown; text?: string }
  | "hang";

/** Chooses the reply to request number `index` (0-based). */
export type Responder = (request: RecordedRequest, index: number) => Reply | Promise<Reply>;

/** A real HTTP server on 127.0.0.1 with a random port. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/**
 * Starts a server answering request n with `replies[n]` (or with the responder's choice).
 * A request past the end of the list gets a 500 naming the problem.
 */
export async function startLoopbackServer(replies: Reply[] | Responder): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const responder: Responder = Array.isArray(replies)
    ? (_request, index) =>
        replies[index] ?? { status: 500, text: `no scripted reply for request ${index + 1}` }
    : replies;
  const server = await startShared(async (incoming, response) => {
    const recorded: RecordedRequest = {
      method: incoming.method,
      path: incoming.url,
      headers: incoming.headers,
      body: parseBody(incoming.body),
    };
    const index = requests.push(recorded) - 1;
    const reply = await Promise.resolve(responder(recorded, index)).catch(
      (error: unknown): Reply => ({ status: 500, text: `responder failed: ${String(error)}` }),
    );
    send(response, reply);
  });
  return { url: server.url, requests, close: () => server.close() };
}

function send(response: ServerResponse, reply: Reply): void {
  if (reply === "hang") return;
  const body = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? "");
  response.writeHead(reply.status ?? 200, {
    "content-type": reply.json !== undefined ? "application/json" : "text/plain",
    ...reply.headers,
  });
  response.end(body);
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The JSON body of request `index`; throws when there is no such request or its body is not an object. */
export function bodyOf(requests: RecordedRequest[], index: number): Record<string, unknown> {
  const body = requests[index]?.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new Error(`request ${index + 1} has no JSON object body (received ${requests.length} requests)`);
  }
  return body as Record<string, unknown>;
}

/** The `messages` array of request `index`. */
export function messagesOf(requests: RecordedRequest[], index: number): Array<Record<string, unknown>> {
  const messages = bodyOf(requests, index).messages;
  if (!Array.isArray(messages)) throw new Error(`request ${index + 1} has no messages array`);
  return messages as Array<Record<string, unknown>>;
}
