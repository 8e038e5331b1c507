import { openRoutes, routesSummary, stopGracefully } from "./open-routes.js";

/** `routekit run <file>`: starts the routes in this process and stops them gracefully on SIGINT or SIGTERM. */
export async function runRoutes(file: string): Promise<number> {
  const context = await openRoutes(file);
  if (context.state === "created") await context.start();
  process.stderr.write(`routekit: running ${routesSummary(context)}\n`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  const stopped = await stopGracefully(context, 30_000);
  process.stderr.write(`routekit: ${stopped.report}\n`);
  return stopped.clean ? 0 : 1;
}
