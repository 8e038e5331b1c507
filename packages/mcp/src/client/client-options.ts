import {
  checkOptions,
  type OptionChecks,
  type OptionsSite,
  optionError,
  truncateForMessage,
} from "@routekit/core/internal";
import { TOOL_NAME_PATTERN } from "@routekit/llm/tool";
import { RoutekitMcpError } from "../errors.js";
import { optionsSite } from "../server/server-options.js";
import type { McpElicitationAnswer, McpSamplingAnswer } from "./answer-types.js";
import { CrossAppAccessProvider } from "./cross-app-access.js";
import { CROSS_APP_ACCESS_CHECK, type McpCrossAppAccessOptions } from "./cross-app-access-options.js";

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

const SERVER_NAME = /^[a-zA-Z0-9_-]{1,32}$/;

const POSITIVE = { type: "integer", min: 1, max: 2 ** 31 - 1 } as const;
const positive = <TDefault extends number>(fallback: TDefault) =>
  ({ ...POSITIVE, default: fallback }) as const;

/** A route's endpoint URI or a function: how the client answers a server's request. */
const ANSWER_CHECK = {
  type: "custom",
  expected: "a route's endpoint URI or a function",
  check: (value: unknown) => typeof value === "function" || (typeof value === "string" && value !== ""),
} as const;

const CLIENT_OPTION_CHECKS = {
  name: {
    type: "string",
    required: true,
    pattern: SERVER_NAME,
    expected: "1-32 letters, digits, '_' or '-'",
  },
  command: { type: "string", nonEmpty: true },
  args: { type: "list", items: { type: "string" }, expected: "a list of strings" },
  env: { type: "record", values: { type: "string" } },
  cwd: { type: "string", nonEmpty: true },
  stderr: { type: "enum", values: ["inherit", "ignore"], default: "inherit" },
  url: { type: "uri", schemes: ["http", "https"] },
  headers: { type: "record", values: { type: "string" } },
  authProvider: {
    type: "custom",
    expected: "an OAuthClientProvider of the MCP SDK",
    check: (value: unknown) => typeof value === "object" && value !== null,
  },
  authorizationCode: {
    type: "custom",
    expected: "a function, with a 'url' and an 'authProvider'",
    check: (value: unknown) => typeof value === "function",
  },
  prefix: {
    type: "custom",
    expected: "letters, digits, '_' or '-'",
    check: (value: unknown) => typeof value === "string" && (value === "" || TOOL_NAME_PATTERN.test(value)),
  },
  include: {
    type: "custom",
    expected: "a list of tool names or a function",
    check: (value: unknown) => typeof value === "function" || Array.isArray(value),
  },
  callTimeoutMs: positive(60_000),
  connectTimeoutMs: positive(30_000),
  reconnect: {
    type: "custom",
    expected: "false or { initialDelayMs, maxDelayMs, maxAttempts }",
    check: (value: unknown) =>
      value === false || (typeof value === "object" && value !== null && !Array.isArray(value)),
  },
  elicitation: ANSWER_CHECK,
  sampling: ANSWER_CHECK,
  crossAppAccess: CROSS_APP_ACCESS_CHECK,
} as const satisfies OptionChecks;

/** The object form of `reconnect`, checked under its own name (`reconnect.maxDelayMs`). */
const RECONNECT_CHECKS = {
  reconnect: {
    type: "object",
    options: { initialDelayMs: positive(500), maxDelayMs: positive(30_000), maxAttempts: POSITIVE },
    required: true,
  },
} as const satisfies OptionChecks;

/** Checks `mcpTools` options: unknown ones are named with the nearest known one. */
export function resolveMcpToolsOptions(options: McpToolsOptions): ResolvedMcpToolsOptions {
  if (options === null || typeof options !== "object") {
    throw new RoutekitMcpError(
      "OPTION_INVALID",
      "mcpTools expects options such as { name: 'files', command: 'npx', args: [...] } or { name, url }",
    );
  }
  const site = optionsSite(
    `mcpTools(${typeof options.name === "string" ? `'${truncateForMessage(options.name, 40)}'` : ""})`,
  );
  const checked = checkOptions(CLIENT_OPTION_CHECKS, options, site);
  const { name, command, url } = checked;
  if ((command === undefined) === (url === undefined)) {
    throw site.error(
      `${site.where}: give exactly one of 'command' (a stdio server) or 'url' (a Streamable HTTP server)`,
      "command",
    );
  }
  const parsedUrl = url === undefined ? undefined : new URL(url);
  if (checked.authorizationCode !== undefined && parsedUrl === undefined) {
    throw optionError(
      site,
      "authorizationCode",
      CLIENT_OPTION_CHECKS.authorizationCode.expected,
      checked.authorizationCode,
    );
  }
  let authProvider = checkedAuthProvider(options.authProvider, parsedUrl, site);
  if (checked.crossAppAccess !== undefined) {
    if (parsedUrl === undefined || authProvider !== undefined || checked.authorizationCode !== undefined) {
      throw site.error(
        `${site.where}: option 'crossAppAccess' needs a 'url' (OAuth is for HTTP servers) and replaces 'authProvider' and 'authorizationCode'`,
        "crossAppAccess",
      );
    }
    authProvider = new CrossAppAccessProvider(
      options.crossAppAccess as McpCrossAppAccessOptions,
      parsedUrl,
      `mcp '${name}'`,
      checked.connectTimeoutMs,
    );
  }
  return {
    name,
    command,
    args: checked.args ?? [],
    env: checked.env,
    cwd: checked.cwd,
    stderr: checked.stderr,
    url: parsedUrl,
    headers: checked.headers,
    authProvider,
    authorizationCode: options.authorizationCode,
    prefix: options.prefix ?? `${name}_`,
    include: includeTest(options.include),
    callTimeoutMs: checked.callTimeoutMs,
    connectTimeoutMs: checked.connectTimeoutMs,
    reconnect: reconnectPolicy(options.reconnect, site),
    elicitation: options.elicitation,
    sampling: options.sampling,
  };
}

function includeTest(include: McpToolsOptions["include"]): (toolName: string) => boolean {
  if (include === undefined) return () => true;
  if (typeof include === "function") return (toolName) => include(toolName) === true;
  const names = new Set(include);
  return (toolName) => names.has(toolName);
}

function reconnectPolicy(
  given: McpToolsOptions["reconnect"],
  site: OptionsSite,
): ResolvedMcpToolsOptions["reconnect"] {
  if (given === false) return undefined;
  const policy = checkOptions(RECONNECT_CHECKS, { reconnect: given ?? {} }, site).reconnect;
  return { ...policy, maxAttempts: policy.maxAttempts ?? Number.POSITIVE_INFINITY };
}

function checkedAuthProvider(
  given: McpOAuthClientProvider | undefined,
  url: URL | undefined,
  site: OptionsSite,
): McpOAuthClientProvider | undefined {
  if (given === undefined) return undefined;
  if (url === undefined) {
    throw site.error(
      `${site.where}: option 'authProvider' needs a 'url' (OAuth is for HTTP servers)`,
      "authProvider",
    );
  }
  if (typeof given.tokens !== "function") {
    throw optionError(site, "authProvider", CLIENT_OPTION_CHECKS.authProvider.expected, given);
  }
  return given;
}
