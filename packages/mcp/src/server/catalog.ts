import type { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import { definePlugin, type RouteContext } from "@routekit/core";
import type { Recorder, RouteDefinition } from "@routekit/core/internal";
import { RoutekitMcpError } from "../errors.js";

/**
 * Suggests values for one argument of a prompt or resource template (`completion/complete`): a
 * function that gets what the user typed so far and the arguments already given, or a route's
 * endpoint URI (its body is `{ value, arguments }`); either returns candidates (the first 100 are
 * sent).
 */
export type McpCompleter =
  | string
  | ((
      value: string,
      context: { readonly arguments: Readonly<Record<string, string>> },
    ) => readonly string[] | Promise<readonly string[]>);

/** What `asMcpResource` records on a route. */
export interface McpResourceAspect {
  readonly uri: string;
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string | undefined;
  readonly mimeType: string | undefined;
  /** Set when `uri` has `{variables}`: the route serves every URI matching it. */
  readonly template: UriTemplate | undefined;
  readonly complete: Readonly<Record<string, McpCompleter>>;
}

/** One argument of a prompt. */
export interface McpPromptArgument {
  readonly name: string;
  readonly description?: string;
  readonly required?: boolean;
}

/** What `asMcpPrompt` records on a route. */
export interface McpPromptAspect {
  readonly name: string;
  readonly title: string | undefined;
  readonly description: string | undefined;
  readonly arguments: readonly McpPromptArgument[];
  readonly complete: Readonly<Record<string, McpCompleter>>;
}

/** A route serving a resource or a prompt, with where to send the exchange. */
export interface CatalogEntry<TAspect> {
  readonly aspect: TAspect;
  readonly route: RouteDefinition;
}

type ChangeListener = (kind: "resources" | "prompts") => void;
type UpdateListener = (uri: string) => void;

/** The resource and prompt routes of one context, as routes are added and removed. */
export class McpCatalog {
  readonly resources = new Map<string, CatalogEntry<McpResourceAspect>>();
  readonly prompts = new Map<string, CatalogEntry<McpPromptAspect>>();
  readonly #changed = new Set<ChangeListener>();
  readonly #updated = new Set<UpdateListener>();

  onChange(listener: ChangeListener): () => void {
    this.#changed.add(listener);
    return () => this.#changed.delete(listener);
  }

  onUpdate(listener: UpdateListener): () => void {
    this.#updated.add(listener);
    return () => this.#updated.delete(listener);
  }

  changed(kind: "resources" | "prompts"): void {
    for (const listener of this.#changed) listener(kind);
  }

  updated(uri: string): void {
    for (const listener of this.#updated) listener(uri);
  }
}

const catalogs = new WeakMap<RouteContext, McpCatalog>();

/** The resource and prompt routes of `context`. */
export function catalogOf(context: RouteContext): McpCatalog {
  let catalog = catalogs.get(context);
  if (catalog === undefined) {
    catalog = new McpCatalog();
    catalogs.set(context, catalog);
  }
  return catalog;
}

/**
 * Tells the clients subscribed to resource `uri` (`resources/subscribe`) that it changed
 * (`notifications/resources/updated`): call it when the data a resource route reads changes.
 */
export function notifyResourceUpdated(context: RouteContext, uri: string): void {
  catalogOf(context).updated(uri);
}

/** Where an MCP verb is recorded, for its errors; throws unless it directly follows from(...). */
export function verbPlace(recorder: Recorder, verb: string): string {
  const route = recorder.route;
  const where = `Route '${route.id || route.from}'`;
  if (!recorder.isRoot || recorder.position !== 0) {
    throw new RoutekitMcpError(
      "ROUTES_INVALID",
      `${where}: ${verb} must directly follow from(...), before any step`,
    );
  }
  return where;
}

/** Checks the `complete` option of a verb: functions by argument name. */
export function checkedCompleters(
  complete: unknown,
  names: readonly string[],
  where: string,
): Readonly<Record<string, McpCompleter>> {
  if (complete === undefined) return {};
  if (complete === null || typeof complete !== "object") {
    throw new RoutekitMcpError(
      "ROUTES_INVALID",
      `${where}: option 'complete' must be functions by argument name`,
    );
  }
  for (const [name, completer] of Object.entries(complete)) {
    if (!names.includes(name)) {
      throw new RoutekitMcpError(
        "ROUTES_INVALID",
        `${where}: option 'complete' names '${name}', which is not an argument (arguments: ${names.join(", ") || "none"})`,
      );
    }
    if (typeof completer !== "function" && (typeof completer !== "string" || completer === "")) {
      throw new RoutekitMcpError(
        "ROUTES_INVALID",
        `${where}: option 'complete.${name}' must be a function or a route's endpoint URI`,
      );
    }
  }
  return complete as Record<string, McpCompleter>;
}

definePlugin({
  name: "routekit-mcp-catalog",
  everyContext: true,
  setup: () => ({
    aspects: {
      mcpResource: {
        added(context, route, aspect) {
          const resource = aspect as McpResourceAspect;
          const catalog = catalogOf(context);
          if (catalog.resources.has(resource.uri)) {
            throw new RoutekitMcpError(
              "ROUTES_INVALID",
              `Route '${route.id}': MCP resource '${resource.uri}' is already served by route '${catalog.resources.get(resource.uri)?.route.id}'`,
            );
          }
          catalog.resources.set(resource.uri, { aspect: resource, route });
          catalog.changed("resources");
        },
        removed(context, _route, aspect) {
          const catalog = catalogOf(context);
          catalog.resources.delete((aspect as McpResourceAspect).uri);
          catalog.changed("resources");
        },
        describe: (aspect) => ({ uri: (aspect as McpResourceAspect).uri }),
      },
      mcpPrompt: {
        added(context, route, aspect) {
          const prompt = aspect as McpPromptAspect;
          const catalog = catalogOf(context);
          if (catalog.prompts.has(prompt.name)) {
            throw new RoutekitMcpError(
              "ROUTES_INVALID",
              `Route '${route.id}': MCP prompt '${prompt.name}' is already served by route '${catalog.prompts.get(prompt.name)?.route.id}'`,
            );
          }
          catalog.prompts.set(prompt.name, { aspect: prompt, route });
          catalog.changed("prompts");
        },
        removed(context, _route, aspect) {
          const catalog = catalogOf(context);
          catalog.prompts.delete((aspect as McpPromptAspect).name);
          catalog.changed("prompts");
        },
        describe: (aspect) => ({ name: (aspect as McpPromptAspect).name }),
      },
    },
  }),
});
