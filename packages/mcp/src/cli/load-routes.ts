import { extname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import {
  createContext,
  type Logger,
  type RouteBuilder,
  type RouteContext,
  type RoutesFunction,
} from "@routekit/core";
import { RoutekitMcpError } from "../errors.js";
import type { McpServerOptions } from "../server/server-options.js";

/** A loaded routes module: its context (not started yet unless the module started it) and options. */
export interface LoadedRoutes {
  readonly context: RouteContext;
  readonly options: Partial<McpServerOptions>;
}

const TYPESCRIPT = new Set([".ts", ".mts", ".cts", ".tsx"]);

/** How `loadRoutes` makes the context of a module that exports routes (not a context of its own). */
export interface LoadRoutesOptions {
  /** The context's name; default "routekit-mcp". */
  readonly name?: string;
  /** Runs after the context is made, before the routes are added (plugins whose interceptors must see them). */
  readonly prepare?: (context: RouteContext) => void | Promise<void>;
}

/**
 * Imports a routes module (TypeScript through tsx, JavaScript as is) and makes its context: the
 * module's `context` (a RouteContext or a function returning one), else a new context with its
 * `default` or `routes` export added (a RouteBuilder class or instance, or a routes function).
 */
export async function loadRoutes(
  file: string,
  logger: Logger,
  loadOptions: LoadRoutesOptions = {},
): Promise<LoadedRoutes> {
  const path = resolve(file);
  if (TYPESCRIPT.has(extname(path))) await registerTypeScript(path);
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    throw new RoutekitMcpError("ROUTES_INVALID", `cannot load routes module ${file}: ${messageOf(error)}`, {
      cause: error,
    });
  }
  const options = (module.mcp ?? {}) as Partial<McpServerOptions>;
  if (typeof options !== "object" || options === null) {
    throw new RoutekitMcpError(
      "ROUTES_INVALID",
      `${file}: the 'mcp' export must be an object of server options`,
    );
  }
  if (module.context !== undefined) {
    const given =
      typeof module.context === "function" ? await (module.context as () => unknown)() : module.context;
    if (!isContext(given)) {
      throw new RoutekitMcpError(
        "ROUTES_INVALID",
        `${file}: the 'context' export must be a RouteContext or a function returning one`,
      );
    }
    return { context: given, options };
  }
  const routes = module.default ?? module.routes;
  const added = asRoutes(routes);
  if (added === undefined) {
    throw new RoutekitMcpError(
      "ROUTES_INVALID",
      `${file}: export a RouteBuilder (class or instance) or a routes function as 'default' or 'routes', ` +
        `or a RouteContext factory as 'context' (found ${routes === undefined ? "neither" : typeof routes})`,
    );
  }
  const context = createContext({ name: loadOptions.name ?? "routekit-mcp", logger });
  await loadOptions.prepare?.(context);
  await context.addRoutes(added);
  return { context, options };
}

async function registerTypeScript(path: string): Promise<void> {
  try {
    const { register } = (await import("tsx/esm/api")) as { register: () => unknown };
    register();
  } catch (error) {
    throw new RoutekitMcpError(
      "ROUTES_INVALID",
      `loading the TypeScript routes file ${path} needs tsx: install it (npm install tsx) or compile the file to JavaScript (${messageOf(error)})`,
      { cause: error },
    );
  }
}

function asRoutes(value: unknown): RouteBuilder | RoutesFunction | undefined {
  if (typeof value === "function") {
    const prototype = (value as { prototype?: { configure?: unknown } }).prototype;
    if (typeof prototype?.configure === "function") return new (value as new () => RouteBuilder)();
    return value as RoutesFunction;
  }
  if (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { configure?: unknown }).configure === "function"
  ) {
    return value as RouteBuilder;
  }
  return undefined;
}

function isContext(value: unknown): value is RouteContext {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as RouteContext).addRoutes === "function" &&
    typeof (value as RouteContext).start === "function" &&
    typeof (value as { tools?: unknown }).tools === "object"
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
