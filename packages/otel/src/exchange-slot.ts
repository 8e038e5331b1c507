import { type Context, type Span, trace } from "@opentelemetry/api";
import { definePropertyKey, type Exchange, type Headers } from "@routekit/core";
import type { ToolRun } from "./agent-run.js";

/**
 * The trace state of an exchange inside one traced route run, send or step, kept in its
 * properties (route-local, never sent): the span it opened (if any) under its parent context,
 * whether that trace is sampled, whether this route run records step spans, and what to restore
 * when it is done. Steps and `direct:` sub-routes read it with one property read, without asking
 * the context manager. One object per run holds all a run needs, so the synchronous path makes
 * no closure.
 */
export class TraceSlot {
  readonly parent: Context;
  readonly span: Span | undefined;
  readonly sampled: boolean;
  readonly steps: boolean;
  /** The slot this one hides while it runs (the caller's), put back when it is done. */
  readonly previous: TraceSlot | undefined;
  /** `performance.now()` when the route run started, 0 when no metric needs it. */
  started = 0;
  /** The `execute_tool` run a tool route's exchange answers. */
  tool: ToolRun | undefined = undefined;
  /** The trace headers an unsampled trace's sends carry, made once (see `traceFields`). */
  fields: ReadonlyArray<readonly [string, string]> | undefined = undefined;
  /** Puts back the trace headers a send wrote, when it is done. */
  restore: ((headers: Headers) => void) | undefined = undefined;
  #context: Context | undefined;

  constructor(
    parent: Context,
    span: Span | undefined,
    sampled: boolean,
    steps: boolean,
    previous: TraceSlot | undefined,
  ) {
    this.parent = parent;
    this.span = span;
    this.sampled = sampled;
    this.steps = steps;
    this.previous = previous;
    this.#context = span === undefined ? parent : undefined;
  }

  /** The context the next span nests under: the parent with this slot's span, made when first asked. */
  get context(): Context {
    if (this.#context === undefined) this.#context = trace.setSpan(this.parent, this.span as Span);
    return this.#context;
  }

  /** Sets the context outright (when it holds more than the span, as an agent run's does). */
  withContext(context: Context): this {
    this.#context = context;
    return this;
  }
}

/** The exchange property holding the `TraceSlot`. */
export const TRACE_SLOT_PROPERTY = "routekit.otel.trace";

/**
 * The slot's property is transient: a span belongs to this process, so a stored group (a shared
 * aggregation repository) and a broker never carry it.
 */
export const TRACE_SLOT_KEY = definePropertyKey<TraceSlot>({ name: TRACE_SLOT_PROPERTY, transient: true });

export function slotOf(exchange: Exchange): TraceSlot | undefined {
  return exchange.properties[TRACE_SLOT_PROPERTY] as TraceSlot | undefined;
}

/** Puts `slot` on the exchange (its `previous` goes back with `leaveSlot`). */
export function enterSlot(exchange: Exchange, slot: TraceSlot): void {
  exchange.properties[TRACE_SLOT_PROPERTY] = slot;
}

/**
 * Puts back the slot `slot` hid (`undefined` after the outermost traced route: set, not deleted,
 * which keeps the properties object's shape).
 */
export function leaveSlot(exchange: Exchange, slot: TraceSlot): void {
  exchange.properties[TRACE_SLOT_PROPERTY] = slot.previous;
}
