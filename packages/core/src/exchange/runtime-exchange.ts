import type * as Crypto from "node:crypto";
import type { Exchange, ExchangePattern, Headers, RouteContext, WireBody } from "../model/exchange.js";
import { copyRecord } from "../support/copy-record.js";
import { lazyModule } from "../support/lazy-module.js";
import type { ExchangeDeadline, SignalSource } from "./exchange-deadline.js";

/** node:crypto, loaded by the first exchange id read (importing core does not load it). */
const crypto = lazyModule<typeof Crypto>("node:crypto", import.meta.url);
let sequence = 0;
/** The snapshot of headers or properties an exchange never had: frozen, only ever copied. */
const NOTHING: Record<string, unknown> = Object.freeze({});
/** A random prefix, so ids from two processes differ; made with the first id. */
let prefix: string | undefined;

// Not exported as such: V8 keeps an exported module variable in a cell it reads on every use,
// while a module-local const is a constant to the optimizing compiler. Each exchange's constructor
// compares its body with IN_WIRE_FORM (measured: a split part about 2 ns slower with it exported).
/** What a `WireExchange` passes for its body: the base constructor then adds no `body` property. */
const IN_WIRE_FORM: unique symbol = Symbol("in wire form");
/** What `copyExchange` copies when it is given no body: the exchange's own, undecoded if it is. */
const SAME_BODY: unique symbol = Symbol("the same body");
/** `IN_WIRE_FORM` and `SAME_BODY`, for `WireExchange`. */
export const sentinels: { readonly inWireForm: typeof IN_WIRE_FORM; readonly sameBody: typeof SAME_BODY } = {
  inWireForm: IN_WIRE_FORM,
  sameBody: SAME_BODY,
};

/** Where an exchange failed, recorded once at the innermost failing step. */
export interface FailureLocation {
  readonly routeId: string;
  readonly step: string;
}

/** Engine state most exchanges never have (an error, a stop, a deadline): made on first write. */
class ExchangeState {
  id: string | undefined = undefined;
  error: Error | undefined = undefined;
  stopped = false;
  haltedIn: string | undefined = undefined;
  original: OriginalMessage | undefined = undefined;
  deadline: ExchangeDeadline | undefined = undefined;
  failure: FailureLocation | undefined = undefined;
  exhaustedIn: string | undefined = undefined;
  /** The id of the exchange this one was copied from (`copyExchange`). */
  parentId: string | undefined = undefined;
}

/**
 * The message as the first route received it, kept when an error handler uses the original
 * message: its body, or its wire form when that had not been decoded yet (restoring it does not
 * decode it), and a copy of its headers.
 */
export interface OriginalMessage {
  readonly body: unknown;
  readonly wire: WireBody | undefined;
  readonly headers: Headers;
}

/** The runtime exchange. Internal fields carry engine state that never leaves the process. */
export class RuntimeExchange<TBody = unknown> implements Exchange<TBody> {
  /** The rarely set engine state, folded into one field so a plain exchange stays small. */
  #state: ExchangeState | undefined = undefined;
  /**
   * A plain property, added by the constructor: a step's `exchange.body` stays one field load.
   * A `WireExchange` has none of its own: its prototype's accessor decodes on first read.
   */
  declare body: TBody;
  /** Made on first use: most exchanges that cross a route never touch one of them. */
  #headers: Headers | undefined;
  #properties: Record<string, unknown> | undefined;
  /**
   * A part's origin (a split part): its headers and properties are copied from the original there
   * on first use, with the part's own properties (e.g. `split.index`) added. The original waits
   * while its parts run.
   */
  #origin: PartOrigin | undefined = undefined;
  /**
   * Three small facts in one number, so an exchange (a split part above all) stays small: the
   * pattern (+1 for InOut), whether it was handed over (+2), and for a part its number × 4 (the
   * number being index × 2, plus 1 for the last part). Kept with arithmetic, not bit operators,
   * so a part index past 2^28 stays exact.
   */
  #bits = 0;
  readonly context: RouteContext;
  /** The signal, or the deadline that makes it on first read (the exchange's own or its caller's). */
  readonly #signal: AbortSignal | SignalSource;
  routeId: string | undefined = undefined;
  fromEndpoint: string | undefined = undefined;
  /** Unique in this process; built on first read (most exchanges never need it). */
  get id(): string {
    const state = RuntimeExchange.#more(this);
    if (state.id === undefined) {
      prefix ??= crypto().randomUUID().slice(0, 8);
      state.id = `${prefix}-${++sequence}`;
    }
    return state.id;
  }

  /** The id of the exchange this one was made from: a split part's original, a copy's source. */
  get parentId(): string | undefined {
    return this.#origin?.original.id ?? this.#state?.parentId;
  }

  /** The engine state, made on first write (static: an instance private method costs every exchange a slot). */
  static #more(exchange: RuntimeExchange): ExchangeState {
    let state = exchange.#state;
    if (state === undefined) {
      state = new ExchangeState();
      exchange.#state = state;
    }
    return state;
  }

  /** Set when a step failed; routing stops unless an error handler clears it. */
  get error(): Error | undefined {
    return this.#state?.error;
  }

  set error(error: Error | undefined) {
    if (error !== undefined || this.#state !== undefined) RuntimeExchange.#more(this).error = error;
  }

  /**
   * True when the rest of a pipeline must not run as it stands: a step left an error, or the
   * exchange is halted. One check of one field for an exchange that has neither (its engine state
   * was never made), which a pipeline makes after every synchronous step.
   */
  get interrupted(): boolean {
    const state = this.#state;
    return (
      state !== undefined && (state.error !== undefined || state.stopped || state.haltedIn !== undefined)
    );
  }

  /** True when no further step may run: stopped, or halted by an error handler (one check). */
  get halted(): boolean {
    const state = this.#state;
    return state !== undefined && (state.stopped || state.haltedIn !== undefined);
  }

  /** InOnly: fire and forget. InOut: the caller waits for the reply. */
  get pattern(): ExchangePattern {
    return this.#bits % 2 === 1 ? "InOut" : "InOnly";
  }

  set pattern(pattern: ExchangePattern) {
    const inOut = this.#bits % 2 === 1;
    if ((pattern === "InOut") !== inOut) this.#bits += inOut ? -1 : 1;
  }

  /**
   * True when the sender hands the exchange over and never reads it again (`context.send`):
   * a queue that accepts it at once may keep it instead of copying it.
   */
  get handedOver(): boolean {
    return this.#bits % 4 >= 2;
  }

  set handedOver(handedOver: boolean) {
    const was = this.#bits % 4 >= 2;
    if (handedOver !== was) this.#bits += was ? -2 : 2;
  }

  /** Set by `stop()`: no further step runs, in this route or its callers. */
  get stopped(): boolean {
    return this.#state?.stopped === true;
  }

  set stopped(stopped: boolean) {
    if (stopped || this.#state !== undefined) RuntimeExchange.#more(this).stopped = stopped;
  }

  /** The route whose error handler handled an error: the rest of that route is skipped. */
  get haltedIn(): string | undefined {
    return this.#state?.haltedIn;
  }

  set haltedIn(routeId: string | undefined) {
    if (routeId !== undefined || this.#state !== undefined) RuntimeExchange.#more(this).haltedIn = routeId;
  }

  /** The message as the first route received it (kept only when a handler uses the original message). */
  get original(): OriginalMessage | undefined {
    return this.#state?.original;
  }

  set original(original: OriginalMessage | undefined) {
    if (original !== undefined || this.#state !== undefined) RuntimeExchange.#more(this).original = original;
  }

  /** The deadline this exchange owns (copies share the signal, not the ownership). */
  get deadline(): ExchangeDeadline | undefined {
    return this.#state?.deadline;
  }

  set deadline(deadline: ExchangeDeadline | undefined) {
    if (deadline !== undefined || this.#state !== undefined) RuntimeExchange.#more(this).deadline = deadline;
  }

  /** Where the error was raised; set once. */
  get failure(): FailureLocation | undefined {
    return this.#state?.failure;
  }

  set failure(failure: FailureLocation | undefined) {
    if (failure !== undefined || this.#state !== undefined) RuntimeExchange.#more(this).failure = failure;
  }

  /** The route whose error handler already dealt with `error` (no redelivery elsewhere). */
  get exhaustedIn(): string | undefined {
    return this.#state?.exhaustedIn;
  }

  set exhaustedIn(routeId: string | undefined) {
    if (routeId !== undefined || this.#state !== undefined) RuntimeExchange.#more(this).exhaustedIn = routeId;
  }

  get headers(): Headers {
    let headers = this.#headers;
    if (headers === undefined) {
      const origin = this.#origin;
      headers = origin === undefined ? {} : copyRecord(origin.endedHeaders ?? origin.original.headers);
      this.#headers = headers;
    }
    return headers;
  }

  set headers(headers: Headers) {
    this.#headers = headers;
  }

  get properties(): Record<string, unknown> {
    let properties = this.#properties;
    if (properties === undefined) {
      const origin = this.#origin;
      if (origin === undefined) properties = {};
      else {
        properties = copyRecord(origin.endedProperties ?? origin.original.properties);
        const part = Math.floor(this.#bits / 4);
        origin.addPartProperties(properties, Math.floor(part / 2), part % 2 === 1);
      }
      this.#properties = properties;
    }
    return properties;
  }

  set properties(properties: Record<string, unknown>) {
    this.#properties = properties;
  }

  /**
   * Part `index` of `origin.original` carrying `body` (see `partOf`): it shares the original's
   * signal (not the ownership of its deadline) and copies its headers and properties on first use.
   */
  static partOf(origin: PartOrigin, body: unknown, index: number, last: boolean): RuntimeExchange {
    const original = origin.original as RuntimeExchange;
    const part = new RuntimeExchange(
      original.context,
      original.#signal,
      body,
      undefined,
      undefined,
      undefined,
    );
    part.#origin = origin;
    origin.lent = true;
    // The original's pattern, not its handing over.
    part.#bits = (index * 2 + (last ? 1 : 0)) * 4 + (original.#bits % 2);
    part.routeId = original.routeId;
    part.fromEndpoint = original.fromEndpoint;
    return part;
  }

  /**
   * A copy of the exchange's headers (`properties` false) or properties as they are now, or a
   * shared empty record when it has none and never will unless written (no copy made). A spread:
   * the snapshot is only ever copied from, never added to (see `copyRecord`).
   */
  static snapshotOf(exchange: Exchange, properties: boolean): Record<string, unknown> {
    const target = exchange as RuntimeExchange;
    const own = properties ? target.#properties : target.#headers;
    if (own === undefined && target.#origin === undefined) return NOTHING;
    return { ...(properties ? target.properties : target.headers) };
  }

  /**
   * A copy of `exchange` carrying `body` under `signal` (see `copyExchange`); `SAME_BODY` for the
   * exchange's own body, whose wire form (when it has one) the copy shares undecoded.
   */
  static copyOf(exchange: Exchange, body: unknown, signal: AbortSignal): RuntimeExchange {
    const copy = (exchange as RuntimeExchange).newCopy(
      body,
      signal,
      copyRecord(exchange.headers),
      copyRecord(exchange.properties),
    );
    copy.routeId = exchange.routeId;
    copy.fromEndpoint = exchange.fromEndpoint;
    RuntimeExchange.#more(copy).parentId = exchange.id;
    return copy;
  }

  /**
   * The new exchange `copyOf` fills in: this one's body for `SAME_BODY`, else `body`, with the
   * given headers and properties (a `WireExchange` overrides it to share its undecoded wire form).
   */
  protected newCopy(
    body: unknown,
    signal: AbortSignal,
    headers: Headers,
    properties: Record<string, unknown>,
  ): RuntimeExchange {
    const value = body === SAME_BODY ? this.body : body;
    return new RuntimeExchange(this.context, signal, value, headers, properties, this.pattern);
  }

  get signal(): AbortSignal {
    const signal = this.#signal;
    return signal instanceof AbortSignal ? signal : signal.signal;
  }

  constructor(
    context: RouteContext,
    signal: AbortSignal | SignalSource,
    body: TBody,
    headers: Headers | undefined,
    properties: Record<string, unknown> | undefined,
    pattern: ExchangePattern | undefined,
  ) {
    this.context = context;
    this.#signal = signal;
    if (body !== IN_WIRE_FORM) this.body = body;
    this.#headers = headers;
    this.#properties = properties;
    if (pattern === "InOut") this.#bits = 1;
  }
}

/** Engine view of any exchange (exchanges are always RuntimeExchange instances). */
export function runtime(exchange: Exchange): RuntimeExchange {
  return exchange as RuntimeExchange;
}

/**
 * A new exchange carrying a copy of the message (headers and properties shallow-copied), for
 * multicast and recipient list copies: changes to the copy never reach the original. Its
 * `parentId` is the original's id. Without `body` it carries the exchange's own body; a body
 * still in its wire form (`createExchange({ wire })`) is shared in that form, not decoded.
 */
export function copyExchange<TBody>(
  exchange: Exchange<TBody>,
  body: unknown = SAME_BODY,
  signal: AbortSignal = exchange.signal,
): Exchange {
  return RuntimeExchange.copyOf(exchange, body, signal);
}

/**
 * What split parts are made from: the original exchange, which waits unchanged while its parts
 * run, and the properties each part adds (e.g. `split.index`) when its properties are first made.
 * One per fan-out run, so a part holds one reference and allocates nothing else.
 */
export interface PartOrigin {
  readonly original: Exchange;
  /** Set by `partOf`: parts were made that copy from this origin on first use. */
  lent: boolean;
  /**
   * Once the run ended and the original went on (later steps may change its headers and
   * properties): the original's headers and properties as its parts saw them (`snapshotOf`),
   * which a part read only afterwards (one an aggregation strategy or user code kept) copies.
   */
  readonly endedHeaders: Headers | undefined;
  readonly endedProperties: Record<string, unknown> | undefined;
  addPartProperties(properties: Record<string, unknown>, index: number, last: boolean): void;
}

/**
 * Part `index` of `origin.original` carrying `body` (a split part): its headers and properties
 * are copies of the original's made on first use (with the origin's part properties added), so a
 * part whose steps never touch them costs no copy. Its `parentId` is the original's id.
 */
export const partOf: (origin: PartOrigin, body: unknown, index: number, last: boolean) => Exchange =
  RuntimeExchange.partOf;

/**
 * The exchange's headers (`properties` false) or properties as they are now, for a `PartOrigin`'s
 * `endedHeaders` / `endedProperties`: a copy, or a shared frozen empty record when it has none yet.
 */
export const snapshotOf: (exchange: Exchange, properties: boolean) => Record<string, unknown> =
  RuntimeExchange.snapshotOf;
