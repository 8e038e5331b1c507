// One generation of `routekit run --watch`: a child process that loads the routes module, says
// whether it loaded, starts when told, and stops gracefully when told (or when its supervisor
// goes away). Messages go over the IPC channel.
import { consoleOf } from "@routekit/console";
import { messageOf } from "./cli-error.js";
import { openRoutes, routesSummary, stopGracefully } from "./open-routes.js";

/** What a generation tells its supervisor. */
export type GenerationReport =
  | { type: "loaded"; summary: string }
  | { type: "failed"; message: string }
  | { type: "started"; consoleUrl: string | undefined }
  | { type: "stopped"; clean: boolean; report: string };

/** What the supervisor tells a generation. */
export type GenerationOrder = { type: "start" } | { type: "stop"; timeoutMs: number };

export async function runGeneration(file: string, consolePort: number | undefined): Promise<number> {
  const send = (report: GenerationReport): Promise<void> =>
    new Promise((resolve) => {
      if (process.send === undefined || !process.connected) resolve();
      else process.send(report, () => resolve());
    });
  // A terminal's Ctrl-C reaches the whole process group: the supervisor decides when this stops.
  process.on("SIGINT", () => {});
  let context: Awaited<ReturnType<typeof openRoutes>>;
  try {
    context = await openRoutes(file, consolePort);
  } catch (error) {
    await send({ type: "failed", message: messageOf(error) });
    return 1;
  }
  await send({ type: "loaded", summary: routesSummary(context) });
  const order = (): Promise<GenerationOrder | undefined> =>
    new Promise((resolve) => {
      const onMessage = (message: GenerationOrder): void => {
        process.off("disconnect", onGone);
        resolve(message);
      };
      const onGone = (): void => {
        process.off("message", onMessage);
        resolve(undefined);
      };
      process.once("message", onMessage);
      process.once("disconnect", onGone);
    });
  const first = await order();
  if (first?.type === "start") {
    await context.start();
    await send({ type: "started", consoleUrl: consoleOf(context)?.url });
    const next = await order();
    const stopped = await stopGracefully(context, next?.type === "stop" ? next.timeoutMs : 10_000);
    await send({ type: "stopped", ...stopped });
    return stopped.clean ? 0 : 1;
  }
  await context.stop({ timeoutMs: 1_000 }).catch(() => undefined);
  await send({ type: "stopped", clean: true, report: "stopped before it started" });
  return 0;
}
