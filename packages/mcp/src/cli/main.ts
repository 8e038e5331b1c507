import { createConsoleLogger, type RouteContext } from "@routekit/core";
import { didYouMean, truncateForMessage } from "@routekit/core/internal";
import { RoutekitMcpError } from "../errors.js";
import { serveMcpHttp } from "../server/serve-http.js";
import { serveMcpStdio } from "../server/serve-stdio.js";
import { type McpServerOptions, PACKAGE_VERSION } from "../server/server-options.js";
import { loadRoutes } from "./load-routes.js";
import { parseArguments, type ServeCommand, USAGE } from "./parse-arguments.js";

/**
 * `routekit-mcp`: runs the command line `argv` (without `node` and the script) and resolves with the
 * exit code once the server has closed.
 */
export async function main(argv: readonly string[]): Promise<number> {
  let command: ReturnType<typeof parseArguments>;
  try {
    command = parseArguments(argv);
  } catch (error) {
    process.stderr.write(`routekit-mcp: ${messageOf(error)}\n`);
    return 2;
  }
  if (command.command === "help") {
    process.stderr.write(USAGE);
    return 0;
  }
  if (command.command === "version") {
    process.stderr.write(`${PACKAGE_VERSION}\n`);
    return 0;
  }
  // Over stdio, stdout carries the protocol: every console line goes to stderr instead.
  if (command.http === undefined) {
    for (const method of ["log", "info", "debug", "trace"] as const) console[method] = console.error;
  }
  try {
    return await serve(command);
  } catch (error) {
    process.stderr.write(`routekit-mcp: ${messageOf(error)}\n`);
    return 1;
  }
}

async function serve(command: ServeCommand): Promise<number> {
  const logger = createConsoleLogger("info");
  const { context, options } = await loadRoutes(command.file, logger);
  const tools = command.tools === "all" ? () => true : (command.tools ?? options.tools);
  if (tools === undefined) {
    throw new RoutekitMcpError(
      "OPTION_INVALID",
      "name the tools to expose: --tools a,b, --all-tools, or export const mcp = { tools: [...] } from the routes module",
    );
  }
  const serverOptions: McpServerOptions = {
    ...options,
    tools,
    ...(command.name === undefined ? undefined : { name: command.name }),
    ...(command.timeoutMs === undefined ? undefined : { toolTimeoutMs: command.timeoutMs }),
  };
  if (context.state === "created") await context.start();
  const known = context.tools.list();
  if (typeof tools !== "function") {
    try {
      refuseUnknownTools(tools, known, command.tools === undefined ? "the module's mcp.tools" : "--tools");
    } catch (error) {
      await context.stop({ timeoutMs: 5_000 }).catch(() => undefined);
      throw error;
    }
  }
  const exposed = known.filter((tool) =>
    typeof tools === "function" ? tools(tool) : tools.includes(tool.name),
  );
  const names = exposed.map((tool) => tool.name).join(", ") || "none yet";

  let close: () => Promise<void>;
  let closed: Promise<void>;
  if (command.http === undefined) {
    const server = await serveMcpStdio(context, serverOptions);
    close = () => server.close();
    closed = server.closed;
    process.stderr.write(`routekit-mcp: serving ${exposed.length} tools (${names}) over stdio\n`);
  } else {
    const tokenEnv =
      command.tokenEnv ?? (process.env.ROUTEKIT_MCP_TOKEN === undefined ? undefined : "ROUTEKIT_MCP_TOKEN");
    const token = tokenEnv === undefined ? undefined : process.env[tokenEnv];
    if (tokenEnv !== undefined && (token === undefined || token === "")) {
      throw new RoutekitMcpError("OPTION_INVALID", `--token-env ${tokenEnv}: the variable is not set`);
    }
    const server = await serveMcpHttp(context, {
      ...serverOptions,
      host: command.http.host,
      port: command.http.port,
      ...(command.path === undefined ? undefined : { path: command.path }),
      ...(token === undefined ? undefined : { token }),
      ...(command.allowedOrigins.length === 0 ? undefined : { allowedOrigins: command.allowedOrigins }),
    });
    close = () => server.close();
    closed = new Promise<void>(() => undefined);
    process.stderr.write(`routekit-mcp: serving ${exposed.length} tools (${names}) at ${server.url}\n`);
  }
  const signalled = new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  await Promise.race([closed, signalled]);
  await shutdown(close, context);
  return 0;
}

async function shutdown(close: () => Promise<void>, context: RouteContext): Promise<void> {
  await close().catch(() => undefined);
  await context.stop({ timeoutMs: 5_000 }).catch(() => undefined);
}

/**
 * Throws for a tool name the context does not have, with the nearest known name: a typo must not
 * serve fewer tools without a word.
 */
function refuseUnknownTools(
  names: readonly string[],
  known: readonly { readonly name: string }[],
  where: string,
): void {
  const knownNames = known.map((tool) => tool.name);
  const unknown = names.filter((name) => !knownNames.includes(name));
  if (unknown.length === 0) return;
  const listed =
    knownNames.length === 0 ? "the routes define no tools" : `known tools: ${knownNames.join(", ")}`;
  const each = unknown
    .map((name) => `'${truncateForMessage(name)}'${didYouMean(name, knownNames, { quoted: true })}`)
    .join(", ");
  throw new RoutekitMcpError(
    "OPTION_INVALID",
    `${where}: unknown tool${unknown.length === 1 ? "" : "s"} ${each}; ${listed}`,
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
