import type { RoutekitEvents } from "@routekit/core";
import type { EventBus } from "@routekit/core/internal";
import type { ConsoleRecordMode } from "./console-options.js";

export type StepStart = RoutekitEvents["step-started"];
export type StepEnd = RoutekitEvents["step-completed"] | RoutekitEvents["step-failed"];

/** What listens to the step events while the console records. */
export interface StepListener {
  /** Recording begins. */
  begin(): void;
  started(event: StepStart): void;
  ended(event: StepEnd, error: Error | undefined): void;
  /** Recording ends: whatever is still open is closed as it is. */
  end(): void;
}

/**
 * When the console listens to step events: while the context runs and a page is connected (with
 * `record: "while-connected"`), or whenever it runs (`"always"`). The rest of the time nothing is
 * subscribed, and the core's step events cost a field read per block of steps.
 */
export class RecordingSwitch {
  readonly #mode: ConsoleRecordMode;
  readonly #events: EventBus;
  readonly #listener: StepListener;
  #running = false;
  #pages = false;
  #unsubscribe: Array<() => void> = [];

  constructor(mode: ConsoleRecordMode, events: EventBus, listener: StepListener) {
    this.#mode = mode;
    this.#events = events;
    this.#listener = listener;
  }

  /** True while the listener is subscribed. */
  get on(): boolean {
    return this.#unsubscribe.length > 0;
  }

  /** The context started. */
  start(): void {
    this.#running = true;
    this.#update();
  }

  /** The context stops. */
  stop(): void {
    this.#running = false;
    this.#update();
  }

  /** Whether a page is connected now. */
  watch(pages: boolean): void {
    this.#pages = pages;
    this.#update();
  }

  #update(): void {
    const on = this.#running && (this.#pages || this.#mode === "always");
    if (on === this.on) return;
    const listener = this.#listener;
    if (!on) {
      for (const unsubscribe of this.#unsubscribe) unsubscribe();
      this.#unsubscribe = [];
      listener.end();
      return;
    }
    const events = this.#events;
    const ended = (event: StepEnd): void => listener.ended(event, "error" in event ? event.error : undefined);
    listener.begin();
    this.#unsubscribe = [
      events.on("step-started", (event) => listener.started(event)),
      events.on("step-completed", ended),
      events.on("step-failed", ended),
    ];
  }
}
