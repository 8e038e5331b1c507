import type { Plugin, RouteContext } from "@routekit/core";
import { createConsoleInterceptor } from "./console-interceptor.js";
import { type ConsoleOptions, resolveConsoleOptions } from "./console-options.js";
import { ConsoleServer } from "./console-server.js";
import { ConsoleStore } from "./console-store.js";

/** The console of a context, once installed. */
export interface ConsoleHandle {
  /** `http://127.0.0.1:<port>/` while the context runs, else undefined. */
  readonly url: string | undefined;
  readonly port: number | undefined;
  /** Open connections to the console (pages, event streams). */
  readonly connections: number;
  /**
   * True while step counters and exchange timelines are recorded: while a page is connected, or
   * from the context's start with `record: "always"`.
   */
  readonly recording: boolean;
}

const consoles = new WeakMap<RouteContext, ConsoleServer>();

/** The console installed in `context`, or undefined when there is none. */
export function consoleOf(context: RouteContext): ConsoleHandle | undefined {
  return consoles.get(context);
}

/**
 * The dev console: install it with `context.use(consolePlugin())` BEFORE adding routes (it notes
 * the steps of the routes added after it, and wraps their llm steps for agent runs). When the
 * context starts, it serves a page (by default on 127.0.0.1, a free port: `consoleOf(context).url`)
 * with the route graph, live counters, recent exchanges and agent runs; it stops with the context.
 * Step counters and exchange timelines are recorded from the core's step events while a page is
 * connected (option `record: "always"`: from the start), so with nobody watching no step pays
 * for the console.
 */
export function consolePlugin(options: ConsoleOptions = {}): Plugin {
  const resolved = resolveConsoleOptions(options);
  return {
    name: "console",
    install(context) {
      if (consoles.has(context)) return;
      const store = new ConsoleStore(context, resolved);
      const server = new ConsoleServer(store);
      consoles.set(context, server);
      context.addInterceptor(
        createConsoleInterceptor(store.registry, store.agentRuns, (uri) => context.componentTraits(uri)),
      );
      context.addLifecycle({
        async start() {
          await server.listen();
          store.recording.start();
          context.logger.info(`routekit console: ${server.url}`);
        },
        async stop() {
          await server.close();
          store.recording.stop();
          store.agentRuns.stop();
        },
      });
    },
  };
}
