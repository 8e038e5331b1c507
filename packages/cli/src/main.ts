import { mcpMain } from "@routekit/mcp/cli";
import { CliError, messageOf } from "./cli-error.js";
import { formatDescription } from "./describe-routes.js";
import { runGeneration } from "./generation.js";
import { openRoutes } from "./open-routes.js";
import { parseCommand, USAGE } from "./parse-command.js";
import { runRoutes } from "./run-routes.js";
import { supervise } from "./supervisor.js";
import { callTool, listTools } from "./tools-command.js";

/** The package's version, printed by `routekit --version`. */
export const CLI_VERSION = "0.1.0";

/** `routekit`: runs the command line `argv` (without `node` and the script) and resolves with the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  // The supervisor's children: one generation of `run --watch` each (not a documented command).
  if (argv[0] === "__generation") {
    return runGeneration(argv[1] ?? "", argv[2] === undefined ? undefined : Number(argv[2]));
  }
  try {
    const command = parseCommand(argv);
    switch (command.command) {
      case "help":
        process.stdout.write(USAGE);
        return 0;
      case "version":
        process.stdout.write(`${CLI_VERSION}\n`);
        return 0;
      case "mcp":
        return await mcpMain(command.argv);
      case "run":
        return command.watch ? await supervise(command.file, command.console) : await runRoutes(command.file);
      case "describe": {
        const context = await openRoutes(command.file);
        try {
          process.stdout.write(formatDescription(context.describe(), command.format));
        } finally {
          await context.stop({ timeoutMs: 5_000 }).catch(() => undefined);
        }
        return 0;
      }
      case "tools-list":
      case "tools-call":
        return await tools(command);
    }
  } catch (error) {
    process.stderr.write(`routekit: ${messageOf(error)}\n`);
    return error instanceof CliError ? error.exitCode : 1;
  }
}

async function tools(
  command:
    | { command: "tools-list"; file: string }
    | { command: "tools-call"; file: string; tool: string; args: unknown },
): Promise<number> {
  const context = await openRoutes(command.file);
  try {
    if (context.state === "created") await context.start();
    if (command.command === "tools-list") {
      process.stdout.write(listTools(context));
      return 0;
    }
    const result = await callTool(context, command.tool, command.args);
    if (!result.isError) {
      process.stdout.write(`${result.output}\n`);
      return 0;
    }
    // What a model would read: the error text under the "safe" policy (no internal addresses or paths).
    process.stderr.write(`routekit: tool '${command.tool}' answered an error: ${result.output}\n`);
    return 1;
  } finally {
    await context.stop({ timeoutMs: 5_000 }).catch(() => undefined);
  }
}
