import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { RouteContext } from "@routekit/core";
import { type CheckedOptions, DEFAULT_MAX_JSON_DEPTH, type OptionChecks } from "@routekit/core/internal";
import { RoutekitMcpError } from "../errors.js";
import { digest, type GuardSettings, guardRequest, isLoopback, loopbackNames } from "./http-guards.js";
import { readJsonBody } from "./read-json-body.js";
import { type McpServerOptions, type ResolvedServerOptions, resolveServerOptions } from "./server-options.js";
import { clientOf, type Session, SessionTable } from "./session-table.js";
import { McpToolServer } from "./tool-server.js";

/** Options of `serveMcpHttp` (and of `createMcpHttpHandler`, less `host` and `port`). */
export interface McpHttpOptions extends McpServerOptions {
  /** Address to bind (default "127.0.0.1"). Any other than loopback needs a `token`. */
  host?: string;
  /** Port (default 0: any free port; read it from `url`). */
  port?: number;
  /** The MCP endpoint's path (default "/mcp"). */
  path?: string;
  /** A bearer token every request must carry (`Authorization: Bearer <token>`). */
  token?: string;
  /**
   * `Origin` values accepted besides the server's own loopback origins; a request with any other
   * `Origin` is refused with 403 (DNS-rebinding protection). Requests without `Origin` pass.
   */
  allowedOrigins?: readonly string[];
  /**
   * `Host` values accepted. On loopback the default is the server's loopback names
   * (`127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT`); elsewhere any host is accepted unless set.
   */
  allowedHosts?: readonly string[];
  /** Largest request body in bytes (default 4 MiB); bigger ones get 413. */
  maxBodyBytes?: number;
  /**
   * Deepest nesting of arrays and objects accepted in a request body (default 128); a deeper one
   * gets 400 with JSON-RPC error -32602 before it is parsed.
   */
  maxJsonDepth?: number;
  /**
   * Most sessions kept at once (default 100). A new session past it closes the least recently
   * used idle session (see `sessionIdleMs`); when every session is in use it is refused with 503.
   */
  maxSessions?: number;
  /**
   * Most sessions one client address keeps at once (default: `maxSessions`). A new one past it
   * closes that client's least recently used idle session, or is refused with 429. Every local
   * client shares the address 127.0.0.1: set it when clients come from addresses of their own.
   */
  maxSessionsPerClient?: number;
  /**
   * How long a session with no request and no open response (call, SSE stream) must have been
   * unused before it may be closed to make room for a new one, in ms (default 300000: 5 minutes).
   */
  sessionIdleMs?: number;
}

/** A running Streamable HTTP server. */
export interface McpHttpServer {
  readonly server: McpToolServer;
  /** The endpoint's URL, e.g. `http://127.0.0.1:40123/mcp`. */
  readonly url: string;
  /** Open sessions. */
  readonly sessions: number;
  /** Closes every session (aborting in-flight calls) and the listening socket. */
  close(): Promise<void>;
}

/** A request handler serving MCP, to mount on a Node HTTP server of your own. */
export interface McpHttpHandler {
  readonly server: McpToolServer;
  readonly sessions: number;
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

/** What an MCP HTTP endpoint takes besides every server's options. */
const HTTP_OPTION_CHECKS = {
  host: { type: "string", nonEmpty: true, default: "127.0.0.1", expected: "an address" },
  port: { type: "integer", min: 0, max: 65_535, default: 0 },
  path: { type: "string", pattern: /^\//, default: "/mcp", expected: "a path starting with '/'" },
  token: {
    type: "string",
    secret: true,
    pattern: /^[\s\S]{8,}$/,
    expected: "a string of at least 8 characters",
  },
  allowedOrigins: { type: "list", items: { type: "string" } },
  allowedHosts: { type: "list", items: { type: "string" } },
  maxBodyBytes: { type: "integer", min: 1, unit: "bytes", default: 4 * 1024 * 1024 },
  maxSessions: { type: "integer", min: 1, default: 100 },
  maxSessionsPerClient: { type: "integer", min: 1 },
  sessionIdleMs: { type: "integer", min: 1, unit: "milliseconds", default: 300_000 },
  maxJsonDepth: { type: "integer", min: 1, default: DEFAULT_MAX_JSON_DEPTH },
} as const satisfies OptionChecks;

/**
 * Serves `context`'s selected tools over MCP Streamable HTTP on a server of its own, bound to
 * 127.0.0.1 by default, with `Origin`/`Host` checks and an optional bearer token.
 */
export async function serveMcpHttp(context: RouteContext, options: McpHttpOptions): Promise<McpHttpServer> {
  const resolved = resolveServerOptions(options, "serveMcpHttp", HTTP_OPTION_CHECKS);
  const { host, port } = resolved.extra;
  if (!isLoopback(host) && options.token === undefined) {
    throw new RoutekitMcpError(
      "OPTION_INVALID",
      `serveMcpHttp: binding to '${host}' reaches beyond this machine; give a 'token' (or bind to 127.0.0.1)`,
    );
  }
  let handler: McpHttpHandler | undefined;
  const http: Server = createServer((request, response) => {
    if (handler === undefined) return refuse(response, 503, "starting");
    handler.handle(request, response).catch((error: unknown) => {
      context.logger.error(
        `mcp: the HTTP handler failed: ${error instanceof Error ? error.message : String(error)}`,
      );
      if (!response.headersSent) refuse(response, 500, "Internal Server Error");
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", (error) =>
      reject(
        new RoutekitMcpError(
          "SERVER_STATE",
          `serveMcpHttp: cannot listen on ${host}:${port}: ${error.message}`,
          {
            cause: error,
          },
        ),
      ),
    );
    http.listen(port, host, () => resolve());
  });
  const bound = (http.address() as AddressInfo).port;
  try {
    handler = createHandler(context, resolved, isLoopback(host) ? bound : undefined);
  } catch (error) {
    await new Promise((resolve) => http.close(resolve));
    throw error;
  }
  const shownHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  const path = resolved.extra.path;
  const mounted = handler;
  return {
    server: mounted.server,
    url: `http://${shownHost}:${bound}${path}`,
    get sessions() {
      return mounted.sessions;
    },
    async close() {
      await mounted.close();
      const closed = new Promise((resolve) => http.close(resolve));
      http.closeAllConnections();
      await closed;
    },
  };
}

/**
 * The MCP endpoint as a handler for your own Node HTTP server (e.g. beside other routes). With
 * `loopbackPort`, the server's loopback origins and hosts are accepted by default.
 */
export function createMcpHttpHandler(
  context: RouteContext,
  options: McpHttpOptions,
  where = "createMcpHttpHandler",
  loopbackPort?: number,
): McpHttpHandler {
  return createHandler(context, resolveServerOptions(options, where, HTTP_OPTION_CHECKS), loopbackPort);
}

/** The checked limits and guards of an MCP HTTP endpoint. */
interface HttpSettings {
  readonly path: string;
  readonly maxSessions: number;
  readonly maxSessionsPerClient: number;
  readonly sessionIdleMs: number;
  readonly maxBodyBytes: number;
  readonly maxJsonDepth: number;
  readonly guards: GuardSettings;
}

/** What the checked options of an MCP HTTP endpoint are. */
type ResolvedHttpOptions = ResolvedServerOptions & {
  readonly extra: CheckedOptions<typeof HTTP_OPTION_CHECKS>;
};

function httpSettings(options: ResolvedHttpOptions["extra"], loopbackPort: number | undefined): HttpSettings {
  const { path, maxSessions, sessionIdleMs, maxBodyBytes, maxJsonDepth, token } = options;
  const limits = {
    maxSessions,
    maxSessionsPerClient: options.maxSessionsPerClient ?? maxSessions,
    sessionIdleMs,
    maxBodyBytes,
    maxJsonDepth,
  };
  const loopback = loopbackPort === undefined ? undefined : loopbackNames(loopbackPort);
  const lower = (values: readonly string[] | undefined) => (values ?? []).map((value) => value.toLowerCase());
  const guards: GuardSettings = {
    allowedOrigins: new Set([...(loopback?.origins ?? []), ...lower(options.allowedOrigins)]),
    allowedHosts:
      options.allowedHosts !== undefined
        ? new Set(lower(options.allowedHosts))
        : loopback === undefined
          ? undefined
          : new Set(loopback.hosts),
    tokenDigest: token === undefined ? undefined : digest(token),
  };
  return { path, ...limits, guards };
}

function createHandler(
  context: RouteContext,
  resolved: ResolvedHttpOptions,
  loopbackPort: number | undefined,
): McpHttpHandler {
  const settings = httpSettings(resolved.extra, loopbackPort);
  const { path, maxBodyBytes, maxJsonDepth } = settings;
  const server = new McpToolServer(context, resolved);
  const sessions = new SessionTable(settings);
  // POST responses still open: on close, the results of ended calls go out before sessions close.
  const posts = new Set<ServerResponse>();
  const untrack = function (this: ServerResponse) {
    posts.delete(this);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const target = new URL(request.url ?? "/", "http://localhost");
    if (target.pathname !== path)
      return refuse(response, 404, `no MCP endpoint at ${target.pathname}; it is at ${path}`);
    const refusal = guardRequest(request, settings.guards);
    if (refusal !== undefined) return refuse(response, refusal.status, refusal.message, refusal.headers);
    const read = await readJsonBody(request, maxBodyBytes, maxJsonDepth);
    if (read.kind === "refused") return refuse(response, read.status, read.message, undefined, read.code);
    const parsedBody = read.kind === "parsed" ? read.body : undefined;
    const sessionId = request.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const session = sessions.get(sessionId);
      if (session === undefined) return refuse(response, 404, "Session not found", undefined, -32001);
      sessions.track(session, response);
      if (request.method === "POST") {
        posts.add(response);
        response.once("close", untrack);
      }
      return session.transport.handleRequest(request, response, parsedBody);
    }
    if (request.method !== "POST") {
      return refuse(response, 400, "Bad Request: no session; start one with an initialize POST");
    }
    const client = clientOf(request.socket.remoteAddress);
    const full = await sessions.admit(client);
    if (full !== undefined) return refuse(response, full.status, full.message, full.headers);
    try {
      await openSession({ server, sessions, maxBodyBytes }, { request, response, client, parsedBody });
    } finally {
      sessions.settle(client);
    }
  };

  return {
    server,
    get sessions() {
      return sessions.size;
    },
    handle,
    async close() {
      await server.drain();
      await whenClosed(posts, CLOSE_GRACE_MS);
      sessions.clear();
      await server.close();
    },
  };
}

/** A request that opens a session (an initialize POST), from `client`. */
interface Opening {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly client: string;
  readonly parsedBody: unknown;
}

/** Opens a session: a transport and an SDK server of its own, kept once `initialize` succeeded. */
async function openSession(
  endpoint: { server: McpToolServer; sessions: SessionTable; maxBodyBytes: number },
  { request, response, client, parsedBody }: Opening,
): Promise<void> {
  const { sessions } = endpoint;
  let session: Session | undefined;
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    maxRequestBodySize: endpoint.maxBodyBytes,
    onsessioninitialized: (id) => {
      if (session !== undefined) sessions.set(id, session);
    },
    onsessionclosed: (id) => {
      sessions.delete(id);
    },
  });
  transport.onclose = () => {
    if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
  };
  const sessionServer = await endpoint.server.connect(transport);
  session = { transport, server: sessionServer, client, lastUsed: Date.now(), open: 0 };
  sessions.track(session, response);
  await transport.handleRequest(request, response, parsedBody);
  // Anything but a valid initialize leaves no session behind.
  if (transport.sessionId === undefined || !sessions.has(transport.sessionId)) await sessionServer.close();
}

/** How long `close` lets the results of ended calls go out before it closes the sessions. */
const CLOSE_GRACE_MS = 2_000;

/** Resolves once every response has closed, or after `timeoutMs`. */
function whenClosed(responses: ReadonlySet<ServerResponse>, timeoutMs: number): Promise<void> {
  if (responses.size === 0) return Promise.resolve();
  return new Promise((resolve) => {
    let open = responses.size;
    const timer = setTimeout(resolve, timeoutMs);
    const onClose = () => {
      if (--open > 0) return;
      clearTimeout(timer);
      resolve();
    };
    for (const response of responses) response.once("close", onClose);
  });
}

/** Answers with a JSON-RPC error body, as MCP clients expect even for HTTP-level refusals. */
function refuse(
  response: ServerResponse,
  status: number,
  message: string,
  headers?: Record<string, string>,
  code = -32000,
): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null });
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(body);
}
