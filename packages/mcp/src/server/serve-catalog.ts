import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { RouteContext } from "@routekit/core";
import { didYouMean, type RouteDefinition, releaseExchange } from "@routekit/core/internal";
import { describeToolError } from "@routekit/llm/internal";
import { type CatalogEntry, catalogOf, type McpCompleter, type McpResourceAspect } from "./catalog.js";
import { promptMessages } from "./prompts.js";
import { matchTemplate, resourceContents } from "./resources.js";
import type { ResolvedServerOptions } from "./server-options.js";

/** At most this many resources one connection subscribes to (`resources/subscribe`). */
export const MAX_SUBSCRIPTIONS = 1000;
/** A client's name or URI is shown up to this length, and longer ones get no "did you mean" (its cost grows with the length). */
const MAX_NAME_SHOWN = 200;
/** At most this many completion values are sent (the protocol's limit). */
const MAX_COMPLETIONS = 100;

/** The resource and prompt side of one connection: its handlers and its subscriptions. */
export class CatalogSession {
  readonly subscriptions = new Set<string>();
  readonly #context: RouteContext;
  readonly #options: ResolvedServerOptions;

  constructor(server: Server, context: RouteContext, options: ResolvedServerOptions) {
    this.#context = context;
    this.#options = options;
    if (options.isResourceExposed !== undefined) this.#serveResources(server);
    if (options.isPromptExposed !== undefined) this.#servePrompts(server);
    if (options.isResourceExposed !== undefined || options.isPromptExposed !== undefined) {
      server.setRequestHandler(CompleteRequestSchema, async (request, extra) => {
        const { ref, argument, context } = request.params;
        const completer = this.#completerOf(ref, argument.name);
        const given = { arguments: context?.arguments ?? {} };
        let values: unknown;
        if (completer === undefined) values = [];
        else if (typeof completer === "function") values = await completer(argument.value, given);
        else values = await this.#send(completer, { value: argument.value, ...given }, {}, extra.signal);
        if (!Array.isArray(values) || !values.every((value: unknown) => typeof value === "string")) {
          throw protocolError(
            ErrorCode.InternalError,
            `the completion of '${argument.name}' did not return a list of strings`,
          );
        }
        const sent = values.slice(0, MAX_COMPLETIONS);
        return { completion: { values: sent, total: values.length, hasMore: values.length > sent.length } };
      });
    }
  }

  #resources(): CatalogEntry<McpResourceAspect>[] {
    const isExposed = this.#options.isResourceExposed;
    return [...catalogOf(this.#context).resources.values()].filter(
      (entry) => isExposed?.(entry.aspect) === true,
    );
  }

  #serveResources(server: Server): void {
    server.setRequestHandler(ListResourcesRequestSchema, () => ({
      resources: this.#resources()
        .filter((entry) => entry.aspect.template === undefined)
        .map(({ aspect }) => definitionOf(aspect, "uri")),
    }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
      resourceTemplates: this.#resources()
        .filter((entry) => entry.aspect.template !== undefined)
        .map(({ aspect }) => definitionOf(aspect, "uriTemplate")),
    }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
      const { uri } = request.params;
      const found = this.#findResource(uri);
      const reply = await this.#send(
        found.entry.route,
        { uri, ...found.variables },
        { "mcp.resource.uri": uri },
        extra.signal,
      );
      return { contents: [resourceContents(uri, found.entry.aspect, reply)] };
    });
    server.setRequestHandler(SubscribeRequestSchema, (request) => {
      this.#findResource(request.params.uri);
      if (this.subscriptions.size >= MAX_SUBSCRIPTIONS && !this.subscriptions.has(request.params.uri)) {
        throw protocolError(
          ErrorCode.InvalidParams,
          `at most ${MAX_SUBSCRIPTIONS} subscriptions per session`,
        );
      }
      this.subscriptions.add(request.params.uri);
      return {};
    });
    server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
      this.subscriptions.delete(request.params.uri);
      return {};
    });
  }

  #findResource(uri: string): {
    entry: CatalogEntry<McpResourceAspect>;
    variables: Record<string, string | string[]>;
  } {
    const entries = this.#resources();
    const exact = entries.find((entry) => entry.aspect.template === undefined && entry.aspect.uri === uri);
    if (exact !== undefined) return { entry: exact, variables: {} };
    for (const entry of entries) {
      const variables =
        entry.aspect.template === undefined ? null : matchTemplate(entry.aspect.template, uri);
      if (variables !== null) return { entry, variables };
    }
    const known = entries.map((entry) => entry.aspect.uri);
    throw protocolError(-32002, `unknown resource '${uri.slice(0, MAX_NAME_SHOWN)}'${hint(uri, known)}`);
  }

  #servePrompts(server: Server): void {
    const exposed = () =>
      [...catalogOf(this.#context).prompts.values()].filter((entry) =>
        this.#options.isPromptExposed?.(entry.aspect),
      );
    server.setRequestHandler(ListPromptsRequestSchema, () => ({
      prompts: exposed().map(({ aspect }) => ({
        name: aspect.name,
        ...(aspect.title === undefined ? undefined : { title: aspect.title }),
        ...(aspect.description === undefined ? undefined : { description: aspect.description }),
        arguments: aspect.arguments.map((argument) => ({ ...argument })),
      })),
    }));
    server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
      const { name } = request.params;
      const entry = exposed().find((candidate) => candidate.aspect.name === name);
      if (entry === undefined) {
        const known = exposed().map((candidate) => candidate.aspect.name);
        throw protocolError(
          ErrorCode.InvalidParams,
          `unknown prompt '${name.slice(0, MAX_NAME_SHOWN)}'${hint(name, known)}`,
        );
      }
      const given = request.params.arguments ?? {};
      const lacking = entry.aspect.arguments.filter(
        (argument) => argument.required && typeof given[argument.name] !== "string",
      );
      if (lacking.length > 0) {
        const names = lacking.map((argument) => `'${argument.name}'`).join(", ");
        throw protocolError(ErrorCode.InvalidParams, `prompt '${name}' needs argument ${names}`);
      }
      const reply = await this.#send(entry.route, given, { "mcp.prompt.name": name }, extra.signal);
      try {
        const messages = promptMessages(name, reply);
        return entry.aspect.description === undefined
          ? { messages }
          : { description: entry.aspect.description, messages };
      } catch (error) {
        throw protocolError(ErrorCode.InternalError, (error as Error).message);
      }
    });
  }

  #completerOf(
    ref: { type: string; name?: string; uri?: string },
    argument: string,
  ): McpCompleter | undefined {
    const catalog = catalogOf(this.#context);
    if (ref.type === "ref/prompt" && ref.name !== undefined) {
      const entry = catalog.prompts.get(ref.name);
      if (entry !== undefined && this.#options.isPromptExposed?.(entry.aspect))
        return entry.aspect.complete[argument];
      throw protocolError(ErrorCode.InvalidParams, `unknown prompt '${ref.name.slice(0, MAX_NAME_SHOWN)}'`);
    }
    if (ref.type === "ref/resource" && ref.uri !== undefined) {
      const entry = catalog.resources.get(ref.uri);
      if (entry !== undefined && this.#options.isResourceExposed?.(entry.aspect))
        return entry.aspect.complete[argument];
      throw protocolError(
        ErrorCode.InvalidParams,
        `unknown resource template '${ref.uri.slice(0, MAX_NAME_SHOWN)}'`,
      );
    }
    return undefined;
  }

  /** Runs `route` on an InOut exchange under the tool deadline and the request's signal. */
  async #send(
    target: RouteDefinition | string,
    body: unknown,
    headers: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<unknown> {
    const exchange = this.#context.createExchange({
      body,
      headers,
      pattern: "InOut",
      signal,
      timeoutMs: this.#options.toolTimeoutMs,
    });
    try {
      await this.#context.endpoint(typeof target === "string" ? target : target.from).send(exchange);
    } catch (error) {
      exchange.error = error instanceof Error ? error : new Error(String(error));
    }
    releaseExchange(exchange);
    if (exchange.error !== undefined) {
      const name = typeof target === "string" ? target : `route '${target.id}'`;
      const text = describeToolError(exchange.error, name, this.#options.toolErrors);
      throw protocolError(ErrorCode.InternalError, `${name} failed: ${text}`);
    }
    return exchange.body;
  }
}

function definitionOf<TKey extends "uri" | "uriTemplate">(aspect: McpResourceAspect, key: TKey) {
  return {
    [key]: aspect.uri,
    name: aspect.name,
    ...(aspect.title === undefined ? undefined : { title: aspect.title }),
    ...(aspect.description === undefined ? undefined : { description: aspect.description }),
    ...(aspect.mimeType === undefined ? undefined : { mimeType: aspect.mimeType }),
  } as { [K in TKey]: string } & { name: string };
}

function hint(name: string, known: readonly string[]): string {
  return name.length > MAX_NAME_SHOWN ? "" : didYouMean(name, known, { quoted: true });
}

function protocolError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}
