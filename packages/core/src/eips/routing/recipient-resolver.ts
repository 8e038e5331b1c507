import { RoutekitError } from "../../errors/errors.js";
import { describeValue } from "../../support/describe-value.js";
import type { DynamicEndpoint, DynamicEndpointCache } from "../dynamic/dynamic-endpoint-cache.js";

/** Whether two recipient lists name the same URIs in the same order. */
function sameUris(uris: readonly string[], other: readonly string[]): boolean {
  if (uris.length !== other.length) return false;
  for (let index = 0; index < uris.length; index++) if (uris[index] !== other[index]) return false;
  return true;
}

/**
 * Turns what a recipient list expression yielded into endpoints of one step's cache. It keeps the
 * last recipients, so a message with the same ones as the one before (a fixed list, the common
 * case) reuses their arrays instead of making new ones: the last text and its URIs, and the last
 * URIs resolved, their endpoints and whether any of them is held.
 */
export class RecipientResolver {
  private lastText: string | undefined;
  private lastTextUris: readonly string[] = [];
  private lastUris: readonly string[] = [];
  private lastResolved: readonly DynamicEndpoint[] = [];
  private lastHolds = false;

  constructor(
    private readonly cache: DynamicEndpointCache,
    private readonly delimiter: string,
    /** `Route 'id' step #n recipientList`, for errors. */
    private readonly where: string,
  ) {}

  /** Whether the endpoints the last `resolve` returned include one this step created (and holds). */
  get holds(): boolean {
    return this.lastHolds;
  }

  /** The URIs of a value: "a,b" text or an iterable of URIs; nothing for null or undefined. */
  uris(value: unknown): readonly string[] {
    if (value === null || value === undefined) return [];
    if (value === this.lastText) return this.lastTextUris;
    const items = typeof value === "string" ? value.split(this.delimiter) : value;
    if (typeof items !== "object" || !(Symbol.iterator in items)) {
      throw new RoutekitError(
        "EXPRESSION_FAILED",
        `${this.where}: the recipient list expression yielded ${describeValue(value)}; expected "uri1,uri2" text or an array of URIs`,
      );
    }
    const uris: string[] = [];
    let index = 0;
    for (const item of items as Iterable<unknown>) {
      if (typeof item !== "string") {
        throw new RoutekitError(
          "EXPRESSION_FAILED",
          `${this.where}: recipient ${index} is ${describeValue(item)}, expected an endpoint URI`,
        );
      }
      const uri = item.trim();
      if (uri !== "") uris.push(uri);
      index++;
    }
    const result = sameUris(uris, this.lastUris) ? this.lastUris : uris;
    if (typeof value === "string") {
      this.lastText = value;
      this.lastTextUris = result;
    }
    return result;
  }

  /**
   * Every endpoint resolved (and validated) before anything is sent, held until the fan-out
   * ends, so the cache never stops an endpoint a copy is still being sent to.
   */
  resolve(uris: readonly string[]): readonly DynamicEndpoint[] {
    const previous = uris === this.lastUris ? this.lastResolved : undefined;
    // Made only when a recipient differs from the last message's.
    let resolved: DynamicEndpoint[] | undefined;
    for (let index = 0; index < uris.length; index++) {
      let recipient: DynamicEndpoint;
      try {
        recipient = this.cache.acquire(uris[index]!);
      } catch (error) {
        this.releaseAll(resolved ?? previous?.slice(0, index) ?? []);
        throw error;
      }
      if (resolved !== undefined) resolved.push(recipient);
      else if (previous?.[index] !== recipient) {
        resolved = previous === undefined ? [] : previous.slice(0, index);
        resolved.push(recipient);
      }
    }
    if (resolved === undefined) return previous!;
    this.lastUris = uris;
    this.lastResolved = resolved;
    this.lastHolds = resolved.some((recipient) => recipient.created);
    return resolved;
  }

  releaseAll(resolved: readonly DynamicEndpoint[]): void {
    for (const recipient of resolved) this.cache.release(recipient);
  }
}
