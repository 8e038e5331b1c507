import { didYouMean, truncateForMessage } from "@routekit/core/internal";
import { CliError } from "./cli-error.js";

/** Output forms of `routekit describe`. */
export type DescribeFormat = "text" | "json" | "mermaid";

/** What the command line asks for. */
export type Command =
  | {
      readonly command: "run";
      readonly file: string;
      readonly watch: boolean;
      readonly console: false | { port: number };
    }
  | { readonly command: "describe"; readonly file: string; readonly format: DescribeFormat }
  | { readonly command: "tools-list"; readonly file: string }
  | { readonly command: "tools-call"; readonly file: string; readonly tool: string; readonly args: unknown }
  | { readonly command: "mcp"; readonly argv: readonly string[] }
  | { readonly command: "help" }
  | { readonly command: "version" };

export const USAGE = `Usage: routekit <command> [options]

Commands:
  run <routes-file> [--watch]          start the routes; stop gracefully on SIGINT/SIGTERM;
                                       --watch reloads them when a file of their folder changes
  dev <routes-file> [--console-port N] run --watch with the console on 127.0.0.1 (its URL is printed)
  describe <routes-file> [--format text|json|mermaid]
                                       the routes, their steps and endpoints, and the graph between them
  routes <routes-file> [--format ...]  the same as describe
  tools list <routes-file>             the tools the routes define, with their input schemas
  tools call <routes-file> <name> --args '{...}'
                                       call a tool; prints its output, or the error a model would read
  mcp serve <routes-file> [options]    serve the tools over MCP (see routekit mcp --help)
  help, --help, --version

A routes module (.ts through tsx, or .js) exports one of:
  default | routes   a RouteBuilder class or instance, or a routes function (r) => { ... }
  context            a RouteContext, or a function (possibly async) returning one
`;

const COMMANDS = ["run", "dev", "describe", "routes", "tools", "mcp", "help"];
const FORMATS: readonly DescribeFormat[] = ["text", "json", "mermaid"];

/** Reads the command line (without `node` and the script); throws a CliError (exit code 2) saying what is wrong. */
export function parseCommand(argv: readonly string[]): Command {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h")
    return { command: "help" };
  if (command === "--version") return { command: "version" };
  if (command === "mcp") return { command: "mcp", argv: rest };
  if (!COMMANDS.includes(command))
    throw usageError(
      `unknown command '${truncateForMessage(command)}'${didYouMean(command, COMMANDS, { quoted: true })}`,
    );
  const { positional, flags } = split(rest, command);
  if (command === "run" || command === "dev") {
    const file = only(positional, 1, `${command} <routes-file>`)[0] as string;
    allowFlags(flags, command === "run" ? ["watch"] : ["console-port"], command);
    if (command === "run") return { command: "run", file, watch: flags.has("watch"), console: false };
    return { command: "run", file, watch: true, console: { port: portOf(flags.get("console-port")) } };
  }
  if (command === "describe" || command === "routes") {
    const file = only(positional, 1, `${command} <routes-file>`)[0] as string;
    allowFlags(flags, ["format"], command);
    const format = (flags.get("format") ?? "text") as DescribeFormat;
    if (!FORMATS.includes(format)) {
      throw usageError(
        `--format expects one of ${FORMATS.join(", ")} (found '${truncateForMessage(format)}')${didYouMean(String(format), FORMATS, { quoted: true })}`,
      );
    }
    return { command: "describe", file, format };
  }
  if (command === "tools") {
    const [action, ...operands] = positional;
    if (action === "list") {
      allowFlags(flags, [], "tools list");
      return { command: "tools-list", file: only(operands, 1, "tools list <routes-file>")[0] as string };
    }
    if (action === "call") {
      allowFlags(flags, ["args"], "tools call");
      const [file, tool] = only(operands, 2, "tools call <routes-file> <name>") as [string, string];
      return { command: "tools-call", file, tool, args: parseArgs(flags.get("args")) };
    }
    throw usageError(
      `tools expects 'list' or 'call' (found ${action === undefined ? "nothing" : `'${action}'`})`,
    );
  }
  return { command: "help" };
}

function usageError(message: string): CliError {
  return new CliError(`${message}\n\n${USAGE}`, 2);
}

/** Positional arguments and `--flag value` / `--flag=value` / `--switch` flags. */
function split(
  argv: readonly string[],
  command: string,
): { positional: string[]; flags: Map<string, string | undefined> } {
  const positional: string[] = [];
  const flags = new Map<string, string | undefined>();
  const switches = new Set(["watch"]);
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string;
    if (!argument.startsWith("--")) {
      positional.push(argument);
      continue;
    }
    const [name, inline] = argument.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (switches.has(name)) {
      flags.set(name, undefined);
      continue;
    }
    const value = inline ?? argv[++index];
    if (value === undefined) throw usageError(`${command}: --${name} needs a value`);
    flags.set(name, value);
  }
  return { positional, flags };
}

function allowFlags(
  flags: Map<string, string | undefined>,
  allowed: readonly string[],
  command: string,
): void {
  for (const name of flags.keys()) {
    if (!allowed.includes(name)) {
      const known =
        allowed.length === 0
          ? "it takes no options"
          : `its options: ${allowed.map((flag) => `--${flag}`).join(", ")}`;
      throw usageError(
        `${command}: unknown option --${truncateForMessage(name)}${didYouMean(name, allowed, { quoted: true })}; ${known}`,
      );
    }
  }
}

function only(values: readonly string[], count: number, shape: string): readonly string[] {
  if (values.length !== count) {
    throw usageError(
      `expected ${shape} (found ${values.length === 0 ? "no arguments" : values.map((value) => `'${value}'`).join(" ")})`,
    );
  }
  return values;
}

function portOf(value: string | undefined): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw usageError(`--console-port expects a port from 0 to 65535 (found '${value}')`);
  return port;
}

function parseArgs(text: string | undefined): unknown {
  if (text === undefined) return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw usageError(
      `--args expects a JSON object such as '{"q":"x"}' (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}
