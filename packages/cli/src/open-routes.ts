import { consolePlugin } from "@routekit/console";
import { createConsoleLogger, type RouteContext } from "@routekit/core";
import { loadRoutes } from "@routekit/mcp/cli";
import { CliError, messageOf } from "./cli-error.js";

/** Loads a routes module into a context that is not started yet; with `consolePort`, the console is installed first. */
export async function openRoutes(file: string, consolePort?: number): Promise<RouteContext> {
  const logger = createConsoleLogger("info");
  try {
    const { context } = await loadRoutes(file, logger, {
      name: "routekit",
      prepare: (made) => {
        if (consolePort !== undefined) made.use(consolePlugin({ port: consolePort, host: "127.0.0.1" }));
      },
    });
    return context;
  } catch (error) {
    throw new CliError(messageOf(error), 1, { cause: error });
  }
}

/** One line per route: id, where it consumes from, and the tool it is. */
export function routesSummary(context: RouteContext): string {
  const routes = context.describe().routes;
  const lines = routes.map((route) => {
    const tool = route.aspects.llmTool as { name?: string } | undefined;
    return `  ${route.id}: ${route.from}${tool?.name === undefined ? "" : ` (tool ${tool.name})`}`;
  });
  return `${routes.length} route${routes.length === 1 ? "" : "s"}\n${lines.join("\n")}`;
}

/** Stops the context within `timeoutMs`; answers a line saying what happened to the exchanges in flight. */
export async function stopGracefully(
  context: RouteContext,
  timeoutMs: number,
): Promise<{ clean: boolean; report: string }> {
  const inflight = context.describe().routes.reduce((sum, route) => sum + route.counters.inflight, 0);
  try {
    await context.stop({ timeoutMs });
    return {
      clean: true,
      report: `stopped; ${inflight} exchange${inflight === 1 ? "" : "s"} in flight finished`,
    };
  } catch (error) {
    return { clean: false, report: `stopped with exchanges not finished: ${messageOf(error)}` };
  }
}
