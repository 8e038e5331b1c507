import { didYouMean, truncateForMessage } from "@routekit/core/internal";
import { RoutekitMcpError } from "../errors.js";

/** What `routekit-mcp serve` was asked to do. */
export interface ServeCommand {
  readonly command: "serve";
  readonly file: string;
  /** Serve Streamable HTTP at this host and port instead of stdio. */
  readonly http: { host: string; port: number } | undefined;
  readonly tools: readonly string[] | "all" | undefined;
  readonly tokenEnv: string | undefined;
  readonly path: string | undefined;
  readonly allowedOrigins: readonly string[];
  readonly name: string | undefined;
  readonly timeoutMs: number | undefined;
}

export type CliCommand = ServeCommand | { readonly command: "help" } | { readonly command: "version" };

export const USAGE = `Usage: routekit-mcp serve <routes-file> [options]

Serves the tools of a routekit routes module (.ts or .js) over MCP: stdio by default.

The module exports one of:
  default | routes   a RouteBuilder class or instance, or a routes function (r) => { ... }
  context            a RouteContext, or a function (possibly async) returning one
and, optionally, mcp: server options ({ tools, outputSchemas, toolTimeoutMs, ... }).

Options:
  --tools a,b          the tools to expose (required unless --all-tools or the module's mcp.tools)
  --all-tools          expose every tool of the context
  --http HOST:PORT     serve Streamable HTTP (e.g. 127.0.0.1:3001) instead of stdio
  --path /mcp          the HTTP endpoint's path (default /mcp)
  --token-env NAME     require "Authorization: Bearer $NAME" over HTTP (default: ROUTEKIT_MCP_TOKEN when set)
  --allow-origin URL   accept this Origin over HTTP besides the server's own (repeatable)
  --name NAME          the server name clients see (default routekit)
  --timeout MS         deadline of one tool call (default 60000)
  --help, --version
`;

const FLAGS = [
  "--tools",
  "--all-tools",
  "--http",
  "--path",
  "--token-env",
  "--allow-origin",
  "--name",
  "--timeout",
  "--help",
  "--version",
];

/** Reads the command line (without `node` and the script). Throws `OPTION_INVALID` saying what is wrong. */
export function parseArguments(argv: readonly string[]): CliCommand {
  const fail = (message: string) => new RoutekitMcpError("OPTION_INVALID", `${message}\n\n${USAGE}`);
  if (argv.includes("--help") || argv.includes("-h") || argv[0] === "help" || argv.length === 0) {
    return { command: "help" };
  }
  if (argv.includes("--version")) return { command: "version" };
  const [command, ...rest] = argv;
  if (command !== "serve")
    throw fail(
      `unknown command '${truncateForMessage(command)}'${didYouMean(command ?? "", ["serve"], { quoted: true })}`,
    );
  let file: string | undefined;
  let http: ServeCommand["http"];
  let tools: ServeCommand["tools"];
  let tokenEnv: string | undefined;
  let path: string | undefined;
  let name: string | undefined;
  let timeoutMs: number | undefined;
  const allowedOrigins: string[] = [];
  for (let index = 0; index < rest.length; index++) {
    const argument = rest[index] as string;
    const [flag, inline] = argument.startsWith("--") ? splitFlag(argument) : [argument, undefined];
    const value = (): string => {
      const given = inline ?? rest[++index];
      if (given === undefined || given.startsWith("--")) throw fail(`${flag} needs a value`);
      return given;
    };
    switch (flag) {
      case "--tools":
        tools = value()
          .split(",")
          .map((tool) => tool.trim())
          .filter(Boolean);
        break;
      case "--all-tools":
        tools = "all";
        break;
      case "--http":
        http = parseHostPort(value(), fail);
        break;
      case "--path":
        path = value();
        break;
      case "--token-env":
        tokenEnv = value();
        break;
      case "--allow-origin":
        allowedOrigins.push(value());
        break;
      case "--name":
        name = value();
        break;
      case "--timeout": {
        const text = value();
        timeoutMs = Number(text);
        if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
          throw fail(`--timeout expects milliseconds (found '${text}')`);
        break;
      }
      default:
        if (flag.startsWith("-"))
          throw fail(
            `unknown option '${truncateForMessage(flag)}'${didYouMean(flag, FLAGS, { quoted: true })}`,
          );
        if (file !== undefined) throw fail(`one routes file is served (found '${file}' and '${flag}')`);
        file = flag;
    }
  }
  if (file === undefined) throw fail("serve needs a routes file, e.g. routekit-mcp serve ./routes.ts");
  return { command: "serve", file, http, tools, tokenEnv, path, allowedOrigins, name, timeoutMs };
}

function splitFlag(argument: string): [string, string | undefined] {
  const equals = argument.indexOf("=");
  return equals < 0 ? [argument, undefined] : [argument.slice(0, equals), argument.slice(equals + 1)];
}

function parseHostPort(text: string, fail: (message: string) => Error): { host: string; port: number } {
  const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(text);
  const port = Number(match?.[2]);
  if (match === null || port > 65_535)
    throw fail(`--http expects HOST:PORT or PORT, e.g. 127.0.0.1:3001 (found '${text}')`);
  const host = (match[1] ?? "127.0.0.1").replace(/^\[|\]$/g, "");
  return { host, port };
}
