import type { RouteContext } from "@routekit/core";
import { type Abortable, type DeadlineSet, shutdownDeadlinesOf } from "@routekit/core/internal";
import type { CallDeadline } from "./call-deadline.js";

/**
 * The deadlines of one server's calls in flight, on one timer, and in the route context's
 * shutdown as one member. Every call of a server has the same `toolTimeoutMs`, so the calls'
 * deadlines come in the order the calls started: the timer only ever waits for the oldest call,
 * and a call costs two links in a list instead of a timer and set entries of its own. The timer
 * is unref'd (it never keeps a process alive) and, once every call has finished, fires once
 * more, finds nothing due, and is not armed again; `stop` clears it.
 */
export class CallClock implements Abortable {
  readonly timeoutMs: number;
  readonly #context: RouteContext;
  /** The oldest and the newest call in flight; each call links to the next and the previous. */
  #oldest: CallDeadline | undefined = undefined;
  #newest: CallDeadline | undefined = undefined;
  #timer: NodeJS.Timeout | undefined = undefined;
  /** The context run's deadlines this clock is in (a context makes a new set at each start). */
  #joined: DeadlineSet | undefined = undefined;
  /** Calls started in this event-loop turn, to listen to their client's signal after it. */
  #starting: CallDeadline[] = [];

  constructor(timeoutMs: number, context: RouteContext) {
    this.timeoutMs = timeoutMs;
    this.#context = context;
  }

  /**
   * Starts timing `deadline`; returns when it is due, on `performance.now()`'s clock. A context
   * that has already aborted in-flight work ends the call at once.
   */
  add(deadline: CallDeadline): number {
    deadline.previous = this.#newest;
    deadline.next = undefined;
    if (this.#newest === undefined) this.#oldest = deadline;
    else this.#newest.next = deadline;
    this.#newest = deadline;
    if (this.#timer === undefined) this.#arm(this.timeoutMs);
    if (this.#starting.push(deadline) === 1) setImmediate(listenAfterTurn, this);
    const due = performance.now() + this.timeoutMs;
    const deadlines = shutdownDeadlinesOf(this.#context);
    if (deadlines !== this.#joined) {
      this.#joined?.delete(this);
      this.#joined = deadlines;
      deadlines.add(this);
    }
    return due;
  }

  /** Stops timing `deadline` (it ended); calling it again does nothing. */
  delete(deadline: CallDeadline): void {
    const { previous, next } = deadline;
    if (previous === undefined) {
      if (this.#oldest !== deadline) return;
      this.#oldest = next;
    } else {
      previous.next = next;
    }
    if (next === undefined) this.#newest = previous;
    else next.previous = previous;
    deadline.previous = undefined;
    deadline.next = undefined;
  }

  /** The calls in flight now, oldest first. */
  running(): CallDeadline[] {
    const calls: CallDeadline[] = [];
    for (let call = this.#oldest; call !== undefined; call = call.next) calls.push(call);
    return calls;
  }

  /**
   * After the turn calls started in: the ones still running listen to their client's signal (a
   * cancellation can only come in on a later read of the transport, or has come in meanwhile).
   */
  listenToStarted(): void {
    const started = this.#starting;
    this.#starting = [];
    for (const deadline of started) deadline.listen();
  }

  /** The route context aborts in-flight work: every call in flight ends saying so. */
  abort(reason: unknown): void {
    for (const call of this.running()) call.end("stopping", reason);
  }

  /** Clears the timer and leaves the context's shutdown (the server is closed). */
  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#joined?.delete(this);
    this.#joined = undefined;
  }

  /** Ends every call that is due (each leaves the list as it ends), then waits for the next one. */
  tick(): void {
    this.#timer = undefined;
    const now = performance.now();
    for (let call = this.#oldest; call !== undefined; call = this.#oldest) {
      if (call.due > now) {
        this.#arm(Math.ceil(call.due - now));
        return;
      }
      call.timeOut();
    }
  }

  #arm(delayMs: number): void {
    this.#timer = setTimeout(tickClock, delayMs, this);
    this.#timer.unref();
  }
}

function tickClock(clock: CallClock): void {
  clock.tick();
}

function listenAfterTurn(clock: CallClock): void {
  clock.listenToStarted();
}
