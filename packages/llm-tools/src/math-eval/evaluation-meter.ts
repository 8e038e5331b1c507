import { LlmToolsError } from "../errors.js";
import type { ResolvedMathEvalOptions } from "./math-eval-options.js";

const TOOL_NAME = "math_eval";
/** All matrices of one evaluation may hold this many times maxMatrixElements together. */
export const ELEMENT_BUDGET_FACTOR = 10;
/** Ticks between two clock reads. */
const TICKS_PER_CLOCK_READ = 64;

/**
 * The running costs of one evaluation: a deadline checked as user functions run and guarded
 * functions are called, and an element budget that guarded allocations draw from.
 */
export class EvaluationMeter {
  readonly maxMatrixElements: number;
  private readonly timeoutMs: number;
  private readonly deadline: number;
  private elementsLeft: number;
  private ticksUntilClockRead = TICKS_PER_CLOCK_READ;
  /** The first limit this evaluation hit; mathjs rewraps errors thrown inside callbacks. */
  private firstFailure: LlmToolsError | undefined;

  constructor(options: ResolvedMathEvalOptions) {
    this.maxMatrixElements = options.maxMatrixElements;
    this.timeoutMs = options.timeoutMs;
    this.deadline = performance.now() + options.timeoutMs;
    this.elementsLeft = options.maxMatrixElements * ELEMENT_BUDGET_FACTOR;
  }

  /** Counts one step; reads the clock every few steps and stops the evaluation past the deadline. */
  tick(): void {
    if (--this.ticksUntilClockRead > 0) return;
    this.ticksUntilClockRead = TICKS_PER_CLOCK_READ;
    this.checkDeadline();
  }

  /** Stops the evaluation when its deadline has passed. */
  checkDeadline(): void {
    if (performance.now() > this.deadline) {
      this.stop(
        new LlmToolsError(
          "TOOL_TIMEOUT",
          TOOL_NAME,
          `${TOOL_NAME}: evaluation ran longer than timeoutMs (${this.timeoutMs} ms) and was stopped`,
        ),
      );
    }
  }

  /** Runs a guard; a limit it hits is remembered as this evaluation's failure. */
  guard(check: () => void): void {
    try {
      check();
    } catch (error) {
      if (error instanceof LlmToolsError) this.stop(error);
      throw error;
    }
  }

  /** Remembers `error` as the reason the evaluation stopped (the first one wins) and throws it. */
  stop(error: LlmToolsError): never {
    this.firstFailure ??= error;
    throw error;
  }

  /** The first limit the evaluation hit, if any; reported instead of mathjs's rewrapped message. */
  get failure(): LlmToolsError | undefined {
    return this.firstFailure;
  }

  /** Accounts for a matrix of `elements` elements that `functionName` is about to create. */
  allocate(elements: number, functionName: string): void {
    if (!(elements <= this.maxMatrixElements)) {
      this.stop(
        refuse(
          `${functionName} would create ${elements} elements, more than maxMatrixElements (${this.maxMatrixElements})`,
        ),
      );
    }
    this.elementsLeft -= elements;
    if (this.elementsLeft < 0) {
      this.stop(
        refuse(
          `the expression creates more than ${this.maxMatrixElements * ELEMENT_BUDGET_FACTOR} matrix elements in total ` +
            `(${ELEMENT_BUDGET_FACTOR} x maxMatrixElements)`,
        ),
      );
    }
  }
}

/** A TOOL_LIMIT_EXCEEDED error of math_eval with the given reason. */
export function refuse(reason: string): LlmToolsError {
  return new LlmToolsError("TOOL_LIMIT_EXCEEDED", TOOL_NAME, `${TOOL_NAME}: ${reason}`);
}

let activeMeter: EvaluationMeter | undefined;

/** Runs a synchronous evaluation with `meter` as the meter the guards report to. */
export function withMeter<TResult>(meter: EvaluationMeter, run: () => TResult): TResult {
  const previous = activeMeter;
  activeMeter = meter;
  try {
    return run();
  } finally {
    activeMeter = previous;
  }
}

/** The meter of the evaluation now running; guards are only reachable from inside one. */
export function currentMeter(): EvaluationMeter {
  if (activeMeter === undefined) {
    throw new LlmToolsError(
      "TOOL_FAILED",
      TOOL_NAME,
      `${TOOL_NAME}: a guarded function ran outside an evaluation`,
    );
  }
  return activeMeter;
}
