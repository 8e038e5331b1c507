import { TOOL_NAME_PATTERN } from "@routekit/llm/tool";
import { RoutekitMcpError } from "../errors.js";
import { refuseUnknownOptions } from "../refuse-unknown-options.js";
import { describe } from "../server/server-options.js";
import type { McpElicitationAnswer, McpSamplingAnswer } from "./answer-types.js";
import {
  CrossAppAccessProvider,
  checkedCrossAppAccess,
  type McpCrossAppAccessOptions,
} from "./cross-app-access.js";

/** How `mcpTools` reaches a server, and how its tools are registered. */
/**
 * An OAuth client of the MCP SDK (its `OAuthClientProvider`, e.g. a `ClientCredentialsProvider`),
 * declared here by the members routekit checks: the SDK's own declaration needs the DOM library in
 * a user's tsconfig, and routekit's published types must not. Any SDK provider fits it.
 */
export interface McpOAuthClientProvider {
  readonly clientMetadata: object;
  tokens(): unknown;
  clientInformation(): unknown;
}

export interface McpToolsOptions {
  /** The server's name in routekit: `mcp:NAME/tool` URIs and the default tool prefix `NAME_`. */
  name: string;
  /** A command that starts a stdio server (give this or `url`). */
  command?: string;
  /** The command's arguments. */
  args?: readonly string[];
  /** Environment of the child process, added to a safe default set (PATH, HOME, ...). */
  env?: Record<string, string>;
  /** Working directory of the child process. */
  cwd?: string;
  /** The child's stderr: "inherit" (default: it reaches this process's stderr) or "ignore". */
  stderr?: "inherit" | "ignore";
  /** A Streamable HTTP server's URL (give this or `command`). */
  url?: string;
  /** Headers of every HTTP request, e.g. `{ authorization: "Bearer ..." }`. */
  headers?: Record<string, string>;
  /**
   * OAuth 2.1 for a Streamable HTTP server: the SDK's `OAuthClientProvider`, e.g. its
   * `ClientCredentialsProvider` or `PrivateKeyJwtProvider` (client credentials). On a 401 the
   * client discovers the authorization server from the server's metadata, gets a token and retries.
   */
  authProvider?: McpOAuthClientProvider;
  /**
   * The authorization-code flow's second half: after the provider's `redirectToAuthorization` sent
   * a user agent to the authorization server, this returns the code the redirect URI received
   * (e.g. from an `http:` route serving the callback). routekit has the SDK exchange it for tokens
   * and sends the request again — at connection, and on a scope step-up (a 403
   * `insufficient_scope`). The signal fires after `connectTimeoutMs`.
   */
  authorizationCode?: (signal: AbortSignal) => string | Promise<string>;
  /**
   * Enterprise-managed authorization (SEP-990, cross-app access) instead of `authProvider`: on a
   * 401 the user's ID token is exchanged at the identity provider for an ID-JAG (RFC 8693), which
   * the server's authorization server trades for an access token (RFC 7523 JWT-bearer grant).
   */
  crossAppAccess?: McpCrossAppAccessOptions;
  /** Prefix of the registered tool names (default `NAME_`; "" for none). */
  prefix?: string;
  /** Which of the server's tools to register (default all): names as the server spells them, or a test. */
  include?: readonly string[] | ((toolName: string) => boolean);
  /** Deadline of one call in milliseconds (default 60000); a caller's shorter deadline wins. */
  callTimeoutMs?: number;
  /** Deadline of connecting (spawn or HTTP, then `initialize` and `tools/list`) (default 30000). */
  connectTimeoutMs?: number;
  /**
   * Answers the server's elicitation requests (input from the user): a route's endpoint URI or a
   * function. Without it the client does not declare the `elicitation` capability.
   */
  elicitation?: McpElicitationAnswer;
  /**
   * Answers the server's sampling requests (a model completion): a route's endpoint URI — e.g. a
   * route with an llm step — or a function. Without it the client does not declare `sampling`.
   */
  sampling?: McpSamplingAnswer;
  /** Reconnection after the server goes away: delays double from `initialDelayMs` up to `maxDelayMs`. */
  reconnect?: { initialDelayMs?: number; maxDelayMs?: number; maxAttempts?: number } | false;
}

/** Options after checking, with defaults. */
export interface ResolvedMcpToolsOptions {
  readonly name: string;
  readonly command: string | undefined;
  readonly args: readonly string[];
  readonly env: Record<string, string> | undefined;
  readonly cwd: string | undefined;
  readonly stderr: "inherit" | "ignore";
  readonly url: URL | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly authProvider: McpOAuthClientProvider | undefined;
  readonly authorizationCode: ((signal: AbortSignal) => string | Promise<string>) | undefined;
  readonly prefix: string;
  readonly include: (toolName: string) => boolean;
  readonly callTimeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly reconnect: { initialDelayMs: number; maxDelayMs: number; maxAttempts: number } | undefined;
  readonly elicitation: McpElicitationAnswer | undefined;
  readonly sampling: McpSamplingAnswer | undefined;
}

const OPTION_NAMES = [
  "name",
  "command",
  "args",
  "env",
  "cwd",
  "stderr",
  "url",
  "headers",
  "authProvider",
  "authorizationCode",
  "crossAppAccess",
  "prefix",
  "include",
  "callTimeoutMs",
  "connectTimeoutMs",
  "reconnect",
  "elicitation",
  "sampling",
];
const SERVER_NAME = /^[a-zA-Z0-9_-]{1,32}$/;

type Fail = (message: string) => Error;

/** Checks `mcpTools` options: unknown ones are named with the nearest known one. */
export function resolveMcpToolsOptions(options: McpToolsOptions): ResolvedMcpToolsOptions {
  const fail: Fail = (message) => new RoutekitMcpError("OPTION_INVALID", message);
  if (options === null || typeof options !== "object") {
    throw fail(
      "mcpTools expects options such as { name: 'files', command: 'npx', args: [...] } or { name, url }",
    );
  }
  const where = `mcpTools(${typeof options.name === "string" ? `'${options.name}'` : ""})`;
  refuseUnknownOptions(options, OPTION_NAMES, where, fail);
  const { name } = options;
  if (typeof name !== "string" || !SERVER_NAME.test(name)) {
    throw fail(`${where}: option 'name' must be 1-32 letters, digits, '_' or '-' (found ${describe(name)})`);
  }
  const url = checkedServer(options, where, fail);
  const stderr = options.stderr ?? "inherit";
  if (stderr !== "inherit" && stderr !== "ignore") {
    throw fail(`${where}: option 'stderr' must be "inherit" or "ignore" (found ${describe(stderr)})`);
  }
  const prefix = options.prefix ?? `${name}_`;
  if (typeof prefix !== "string" || (prefix !== "" && !TOOL_NAME_PATTERN.test(prefix))) {
    throw fail(`${where}: option 'prefix' must be letters, digits, '_' or '-' (found ${describe(prefix)})`);
  }
  const { authorizationCode } = options;
  if (authorizationCode !== undefined && (typeof authorizationCode !== "function" || url === undefined)) {
    throw fail(`${where}: option 'authorizationCode' must be a function, with a 'url' and an 'authProvider'`);
  }
  const crossAppAccess = checkedCrossAppAccess(options.crossAppAccess, where, fail);
  let authProvider = checkedAuthProvider(options.authProvider, url, where, fail);
  if (crossAppAccess !== undefined) {
    if (url === undefined || authProvider !== undefined || authorizationCode !== undefined) {
      throw fail(
        `${where}: option 'crossAppAccess' needs a 'url' (OAuth is for HTTP servers) and replaces 'authProvider' and 'authorizationCode'`,
      );
    }
    const connectTimeoutMs = positive(options.connectTimeoutMs ?? 30_000, "connectTimeoutMs", where, fail);
    authProvider = new CrossAppAccessProvider(crossAppAccess, url, `mcp '${name}'`, connectTimeoutMs);
  }
  return {
    name,
    command: options.command,
    args: options.args ?? [],
    env: options.env,
    cwd: options.cwd,
    stderr,
    url,
    headers: options.headers,
    authProvider,
    authorizationCode,
    prefix,
    include: includeTest(options.include, where, fail),
    callTimeoutMs: positive(options.callTimeoutMs ?? 60_000, "callTimeoutMs", where, fail),
    connectTimeoutMs: positive(options.connectTimeoutMs ?? 30_000, "connectTimeoutMs", where, fail),
    reconnect: reconnectPolicy(options.reconnect, where, fail),
    elicitation: answerOption(options.elicitation, "elicitation", where, fail),
    sampling: answerOption(options.sampling, "sampling", where, fail),
  };
}

/** Checks `command` / `args` or `url` (exactly one server); the parsed URL of an HTTP server. */
function checkedServer(options: McpToolsOptions, where: string, fail: Fail): URL | undefined {
  const { command, url } = options;
  if ((command === undefined) === (url === undefined)) {
    throw fail(
      `${where}: give exactly one of 'command' (a stdio server) or 'url' (a Streamable HTTP server)`,
    );
  }
  if (command !== undefined && (typeof command !== "string" || command === "")) {
    throw fail(`${where}: option 'command' must be a non-empty string (found ${describe(command)})`);
  }
  const args = options.args ?? [];
  if (!Array.isArray(args) || args.some((arg) => typeof arg !== "string")) {
    throw fail(`${where}: option 'args' must be a list of strings`);
  }
  if (url === undefined) return undefined;
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(String(url));
  } catch {
    throw fail(`${where}: option 'url' must be an absolute http(s) URL (found ${describe(url)})`);
  }
  if (parsedUrl.protocol !== "http:" && parsedUrl.protocol !== "https:") {
    throw fail(`${where}: option 'url' must be an http(s) URL (found ${describe(url)})`);
  }
  return parsedUrl;
}

function includeTest(
  include: McpToolsOptions["include"],
  where: string,
  fail: Fail,
): (toolName: string) => boolean {
  if (include === undefined) return () => true;
  if (typeof include === "function") return (toolName) => include(toolName) === true;
  if (Array.isArray(include)) {
    const names = new Set(include);
    return (toolName) => names.has(toolName);
  }
  throw fail(
    `${where}: option 'include' must be a list of tool names or a function (found ${describe(include)})`,
  );
}

function reconnectPolicy(
  given: McpToolsOptions["reconnect"],
  where: string,
  fail: Fail,
): ResolvedMcpToolsOptions["reconnect"] {
  if (given === false) return undefined;
  const policy = given ?? {};
  if (typeof policy !== "object" || policy === null) {
    throw fail(`${where}: option 'reconnect' must be false or { initialDelayMs, maxDelayMs, maxAttempts }`);
  }
  refuseUnknownOptions(policy, ["initialDelayMs", "maxDelayMs", "maxAttempts"], `${where} reconnect`, fail);
  return {
    initialDelayMs: positive(policy.initialDelayMs ?? 500, "reconnect.initialDelayMs", where, fail),
    maxDelayMs: positive(policy.maxDelayMs ?? 30_000, "reconnect.maxDelayMs", where, fail),
    maxAttempts:
      policy.maxAttempts === undefined
        ? Number.POSITIVE_INFINITY
        : positive(policy.maxAttempts, "reconnect.maxAttempts", where, fail),
  };
}

function positive(value: unknown, key: string, where: string, fail: (message: string) => Error): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value >= 2 ** 31) {
    throw fail(`${where}: option '${key}' must be a positive integer (found ${describe(value)})`);
  }
  return value;
}

function answerOption<TAnswer>(
  given: TAnswer | undefined,
  option: string,
  where: string,
  fail: (message: string) => Error,
): TAnswer | undefined {
  if (given === undefined || typeof given === "function" || (typeof given === "string" && given !== ""))
    return given;
  throw fail(
    `${where}: option '${option}' must be a route's endpoint URI or a function (found ${describe(given)})`,
  );
}

function checkedAuthProvider(
  given: McpOAuthClientProvider | undefined,
  url: URL | undefined,
  where: string,
  fail: (message: string) => Error,
): McpOAuthClientProvider | undefined {
  if (given === undefined) return undefined;
  if (url === undefined)
    throw fail(`${where}: option 'authProvider' needs a 'url' (OAuth is for HTTP servers)`);
  if (given === null || typeof given !== "object" || typeof given.tokens !== "function") {
    throw fail(
      `${where}: option 'authProvider' must be an OAuthClientProvider of the MCP SDK (found ${describe(given)})`,
    );
  }
  return given;
}
