import { isDeepStrictEqual } from "node:util";
import { RoutekitError } from "../errors/errors.js";
import { copyExchange } from "../exchange/runtime-exchange.js";
import type { Exchange, Processor } from "../model/exchange.js";
import { defineComponent, type Endpoint } from "./component.js";
import { renderValue } from "./log.js";

/** A test endpoint: records what it receives and checks expectations (Camel's MockEndpoint). */
export class MockEndpoint implements Endpoint {
  readonly uri: string;
  readonly received: Exchange[] = [];
  #count = 0;
  #expectedCount: number | undefined;
  #minimumCount: number | undefined;
  #expectedBodies: unknown[] | undefined;
  #expectedHeaders: Array<[string, unknown]> = [];
  #reaction: Processor | undefined;
  #waiters: Array<() => void> = [];
  readonly #retainFirst: number;
  readonly #retainLast: number;

  constructor(uri: string, retainFirst: number, retainLast: number) {
    this.uri = uri;
    this.#retainFirst = retainFirst;
    this.#retainLast = retainLast;
  }

  readonly send = (exchange: Exchange): void | Promise<void> => {
    this.#count++;
    this.#retain(exchange);
    const waiters = this.#waiters;
    if (waiters.length > 0) {
      this.#waiters = [];
      for (const wake of waiters) wake();
    }
    return this.#reaction?.(exchange);
  };

  #retain(exchange: Exchange): void {
    if (this.#retainFirst === 0 && this.#retainLast === 0) return;
    if (this.#retainFirst > 0 && this.received.length < this.#retainFirst) {
      this.received.push(copyExchange(exchange));
    } else if (this.#retainLast > 0) {
      this.received.push(copyExchange(exchange));
      if (this.received.length > this.#retainLast + Math.max(this.#retainFirst, 0))
        this.received.splice(Math.max(this.#retainFirst, 0), 1);
    } else if (this.#retainFirst < 0) {
      this.received.push(copyExchange(exchange));
    }
  }

  /** How many exchanges arrived (counted even when none are retained). */
  get receivedCount(): number {
    return this.#count;
  }

  get receivedBodies(): unknown[] {
    return this.received.map((exchange) => exchange.body);
  }

  expectedMessageCount(count: number): this {
    this.#expectedCount = count;
    return this;
  }

  expectedMinimumMessageCount(count: number): this {
    this.#minimumCount = count;
    return this;
  }

  expectedBodiesReceived(...bodies: unknown[]): this {
    this.#expectedBodies = bodies;
    this.#expectedCount ??= bodies.length;
    return this;
  }

  expectedHeaderReceived(name: string, value: unknown): this {
    this.#expectedHeaders.push([name, value]);
    return this;
  }

  /** Runs for every exchange received, e.g. to simulate a failure (`throw`) or a reply. */
  whenAnyExchangeReceived(processor: Processor): this {
    this.#reaction = processor;
    return this;
  }

  reset(): void {
    this.received.length = 0;
    this.#count = 0;
    this.#expectedCount = undefined;
    this.#minimumCount = undefined;
    this.#expectedBodies = undefined;
    this.#expectedHeaders = [];
    this.#reaction = undefined;
  }

  /** Waits (up to `timeoutMs`) for the expected count, then checks every expectation. */
  async assertIsSatisfied(timeoutMs = 10_000): Promise<void> {
    const target = Math.max(this.#expectedCount ?? 0, this.#minimumCount ?? 0);
    const deadline = Date.now() + timeoutMs;
    while (this.#count < target && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    const problems: string[] = [];
    if (this.#expectedCount !== undefined && this.#count !== this.#expectedCount) {
      problems.push(`expected ${this.#expectedCount} messages, received ${this.#count}`);
    }
    if (this.#minimumCount !== undefined && this.#count < this.#minimumCount) {
      problems.push(`expected at least ${this.#minimumCount} messages, received ${this.#count}`);
    }
    if (this.#expectedBodies !== undefined && !isDeepStrictEqual(this.receivedBodies, this.#expectedBodies)) {
      problems.push(
        `expected bodies ${renderValue(this.#expectedBodies)}, received ${renderValue(this.receivedBodies)}`,
      );
    }
    for (const [name, value] of this.#expectedHeaders) {
      const found = this.received.find((exchange) => isDeepStrictEqual(exchange.headers[name], value));
      if (found === undefined) problems.push(`expected a message with header ${name}=${renderValue(value)}`);
    }
    if (problems.length > 0) {
      throw new RoutekitError(
        "ASSERTION_FAILED",
        `Mock endpoint '${this.uri}' is not satisfied: ${problems.join("; ")}`,
      );
    }
  }
}

/** `mock:name?retainFirst=-1&retainLast=0` — see MockEndpoint. retainFirst=-1 keeps every message. */
export const mockComponent = defineComponent({
  scheme: "mock",
  traits: { inProcess: true, messagingSystem: "routekit", sameExchange: true },
  options: {
    retainFirst: { type: "integer", default: -1, min: -1 },
    retainLast: { type: "integer", default: 0, min: 0 },
  },
  createEndpoint(address) {
    if (address.path === "")
      throw new RoutekitError(
        "URI_INVALID",
        `Endpoint '${address.uri}': mock needs a name, e.g. 'mock:result'`,
      );
    return new MockEndpoint(address.uri, address.options.retainFirst, address.options.retainLast);
  },
});
