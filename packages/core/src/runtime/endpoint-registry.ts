import type { Component, Endpoint } from "../components/component.js";
import type { ComponentContext } from "../components/component-context.js";
import { parseOptions, parseUri } from "../components/uri.js";
import { RoutekitError } from "../errors/errors.js";
import { type ComponentTraits, DEFAULT_COMPONENT_TRAITS } from "../model/component-traits.js";
import { didYouMean } from "../support/did-you-mean.js";
import { firstPartySchemeHint } from "../support/first-party.js";
import { redactUri } from "../support/redact-uri.js";
import { declareHeaderPrefixes } from "../support/secret-names.js";
import { truncateForMessage } from "../support/truncate-for-message.js";
import { checkComponent } from "./check-extension.js";

/**
 * A context's components by scheme and the endpoints made from them, one per URI. Remembers where
 * each endpoint is first used ("Route 'ask' step #1 to(llm:openai)") so an endpoint that fails to
 * start is reported there, and collects the starts of endpoints made while the context runs.
 */
export class EndpointRegistry {
  readonly #components = new Map<string, Component>();
  readonly #endpoints = new Map<string, Endpoint>();
  readonly #uses = new Map<string, string>();
  #starts: Promise<void>[] = [];

  addComponent(component: Component): void {
    checkComponent(component);
    declareHeaderPrefixes(component.headerPrefixes ?? []);
    this.#components.set(component.scheme, component);
  }

  /** What the component of `uri` declares about its endpoints; undefined for an unknown scheme. */
  traits(uri: string): ComponentTraits | undefined {
    const parsed = parseUri(uri);
    const component = this.#components.get(parsed.scheme);
    if (component === undefined) return undefined;
    const traits = component.traits;
    if (traits === undefined) return DEFAULT_COMPONENT_TRAITS;
    return typeof traits === "function" ? traits({ scheme: parsed.scheme, path: parsed.path }) : traits;
  }

  has(uri: string): boolean {
    return this.#endpoints.has(uri);
  }

  /** Stops keeping the endpoint of `uri`; returns it, to be stopped. */
  forget(uri: string): Endpoint | undefined {
    const endpoint = this.#endpoints.get(uri);
    this.#endpoints.delete(uri);
    return endpoint;
  }

  /** The endpoints kept, for starting and stopping them with the context. */
  endpoints(): IterableIterator<[string, Endpoint]> {
    return this.#endpoints.entries();
  }

  /**
   * The endpoint for `uri`, made once. With `running`, an endpoint made now is started at once;
   * `takeStarts()` hands those starts to whoever waits for them (addRoutes).
   */
  endpoint(uri: string, context: ComponentContext, running: boolean): Endpoint {
    const cached = this.#endpoints.get(uri);
    if (cached !== undefined) return cached;
    const parsed = parseUri(uri);
    const component = this.#components.get(parsed.scheme);
    if (component === undefined) {
      const known = [...this.#components.keys()];
      throw new RoutekitError(
        "COMPONENT_UNKNOWN",
        `Endpoint '${truncateForMessage(redactUri(uri))}': no component for scheme '${truncateForMessage(parsed.scheme)}'${firstPartySchemeHint(parsed.scheme) || didYouMean(parsed.scheme, known)}; known schemes: ${known.join(", ")} (a package adds more with context.use(plugin))`,
      );
    }
    const options = parseOptions(parsed, component.options);
    const endpoint = component.createEndpoint(
      { uri, scheme: parsed.scheme, path: parsed.path, options },
      context,
    );
    this.#endpoints.set(uri, endpoint);
    if (running && endpoint.start !== undefined) {
      // Started with the routes that use it: addRoutes awaits this and fails naming the route.
      const started = this.start(uri, endpoint);
      started.catch(() => undefined); // awaited by addRoutes; never an unhandled rejection
      this.#starts.push(started);
    }
    return endpoint;
  }

  /** The starts of endpoints made while the context ran, since the last call. */
  takeStarts(): Promise<void>[] {
    return this.#starts.splice(0);
  }

  noteUse(uri: string, where: string): void {
    if (!this.#uses.has(uri)) this.#uses.set(uri, where);
  }

  /** Starts an endpoint; a failure names the route and step that use it. */
  async start(uri: string, endpoint: Endpoint): Promise<void> {
    try {
      await endpoint.start?.();
    } catch (error) {
      const where = this.#uses.get(uri) ?? `Endpoint '${redactUri(uri)}'`;
      const message = error instanceof Error ? error.message : String(error);
      throw new RoutekitError("ENDPOINT_START_FAILED", `${where}: ${message}`, { cause: error });
    }
  }
}
