import type { Exchange, RouteContext } from "@routekit/core";
import { LlmError } from "../errors.js";
import type { ChatMessage } from "../model-types.js";
import type { RunToolLoopOptions } from "../tool-loop/tool-loop-types.js";
import { requireDurable } from "./durable-settings.js";
import { type ApprovalRequest, type DurableOutcome, runDurableLoop } from "./run-durable-loop.js";
// The events this module emits are declared on core's RoutekitEvents there.
import type {} from "./run-events.js";
import type { DurableRunState, ThreadMemory } from "./run-state.js";
import { acquireRun, type RunHandle } from "./run-store.js";
import { appendToThread } from "./thread-memory.js";

/** The header naming a durable run: set it (e.g. from an order id) so a redelivered message resumes its run. */
export const LLM_RUN_ID_HEADER = "llm.run.id";
/** "completed" or "parked": how the durable run stood when the step handed the exchange on. */
export const LLM_RUN_STATUS_HEADER = "llm.run.status";

/** A W3C traceparent (version 00): what `keepTrace` accepts. */
const TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;
/** Traceparents kept with a run: the last ones. */
const MAX_TRACES = 16;

/** The runs a loop of this context works on now, by run id (one loop per run per instance). */
function workingRunsOf(context: RouteContext): Set<string> {
  return context.service("routekit.llm.durable.working", () => new Set<string>());
}

/** The loop options of one run of a durable endpoint, without its input (the checkpoint holds that). */
export type DurableLoopSettings = Omit<RunToolLoopOptions, "input" | "onPart" | "output">;

/** The dead letters of a run resumed without an exchange (the step's `toolDeadLetterUri`). */
export type LettersOfResumedRun = (
  runId: string,
  routeId: string | undefined,
) => { onToolError: NonNullable<RunToolLoopOptions["onToolError"]>; delivered(): Promise<void> };

/**
 * The durable side of one `llm:` endpoint: runs an exchange's run from its checkpoint (or a new
 * one), and resumes runs by id for `context.agents` (after an approval, or a crash found by recovery).
 */
export class DurableRunner {
  readonly #context: RouteContext;
  readonly #uri: string;
  readonly #settings: () => DurableLoopSettings;
  readonly #letters: LettersOfResumedRun | undefined;

  constructor(
    context: RouteContext,
    uri: string,
    settings: () => DurableLoopSettings,
    letters?: LettersOfResumedRun,
  ) {
    requireDurable(context, `Endpoint '${uri}'`);
    this.#context = context;
    this.#uri = uri;
    this.#settings = settings;
    this.#letters = letters;
    context.agents.resumers.set(uri, (runId) => this.resume(runId));
  }

  /** Runs the exchange's run: the body is the input of a new run; a run that exists goes on from its checkpoint. */
  async run(
    exchange: Exchange,
    input: string | ChatMessage[],
    loop: DurableLoopSettings,
    thread?: ThreadMemory,
  ): Promise<DurableOutcome> {
    const named = exchange.headers[LLM_RUN_ID_HEADER];
    const runId = typeof named === "string" && named !== "" ? named : crypto.randomUUID();
    exchange.headers[LLM_RUN_ID_HEADER] = runId;
    const settings = requireDurable(this.#context, `Endpoint '${this.#uri}'`);
    const create = (): DurableRunState => ({
      runId,
      endpointUri: this.#uri,
      routeId: exchange.routeId,
      messages: typeof input === "string" ? [{ role: "user", content: input }] : input.slice(),
      iteration: 0,
      usage: { inputTokens: 0, outputTokens: 0 },
      toolCalls: 0,
      results: {},
      started: {},
      approvals: {},
      ...(settings.replyTo === undefined ? {} : { replyTo: settings.replyTo }),
      ...(thread === undefined ? {} : { thread }),
    });
    const acquired = await this.#acquire(runId, create);
    if (acquired === "busy") {
      throw new LlmError(
        "RUN_CONFLICT",
        `Endpoint '${this.#uri}': durable run '${runId}' is held by another instance (or already worked on in this one); try again when its lease (${settings.leaseMs} ms) ends`,
      );
    }
    if (acquired === "ended") return this.#ended(runId);
    this.#resumed(acquired);
    this.#acquired(acquired, exchange.id);
    return this.#loop(acquired, loop);
  }

  /**
   * Takes the run's lease, unless this instance already works on the run (a redelivered message
   * while recovery runs it here, say): the lease names the instance, not the loop, so two loops of
   * one instance would both pass it. The run is marked as worked on here before the store is asked,
   * so two loops starting at once in this instance cannot both take it.
   */
  async #acquire(runId: string, create: () => DurableRunState): Promise<RunHandle | "busy" | "ended"> {
    const settings = requireDurable(this.#context, `Endpoint '${this.#uri}'`);
    const working = workingRunsOf(this.#context);
    if (working.has(runId)) return "busy";
    working.add(runId);
    try {
      const acquired = await acquireRun(settings.store, runId, settings.instanceId, settings.leaseMs, create);
      if (typeof acquired === "string") working.delete(runId);
      return acquired;
    } catch (error) {
      working.delete(runId);
      throw error;
    }
  }

  /** Takes run `runId` up here; its answer goes to the store and to `replyTo` when set. */
  async resume(runId: string): Promise<DurableOutcome | "busy" | "ended"> {
    const acquired = await this.#acquire(runId, () => {
      throw new LlmError("RUN_NOT_FOUND", `Endpoint '${this.#uri}': no durable run '${runId}' in the store`);
    });
    if (typeof acquired === "string") return acquired;
    this.#resumed(acquired);
    this.#acquired(acquired, undefined);
    const letters = this.#letters?.(runId, acquired.state.routeId);
    const loop = this.#settings();
    let outcome: DurableOutcome;
    try {
      outcome = await this.#loop(
        acquired,
        letters === undefined ? loop : { ...loop, onToolError: letters.onToolError },
      );
    } finally {
      await letters?.delivered();
    }
    const replyTo = acquired.state.replyTo;
    if (outcome.status === "completed" && replyTo !== undefined) {
      await this.#context.send(replyTo, outcome.result.text, {
        [LLM_RUN_ID_HEADER]: runId,
        [LLM_RUN_STATUS_HEADER]: "completed",
      });
    }
    return outcome;
  }

  async #loop(handle: RunHandle, loop: DurableLoopSettings): Promise<DurableOutcome> {
    const settings = requireDurable(this.#context, `Endpoint '${this.#uri}'`);
    const approvals = settings.approvals;
    const outcome = await runDurableLoop({
      handle,
      loop,
      context: this.#context,
      requestApproval: (request: ApprovalRequest) =>
        approvals === undefined
          ? Promise.resolve()
          : this.#context.send(approvals, request, { [LLM_RUN_ID_HEADER]: request.runId }),
    })
      .catch((error: unknown) => {
        this.#released(handle, "interrupted", error);
        throw error;
      })
      .finally(() => workingRunsOf(this.#context).delete(handle.state.runId));
    this.#released(handle, outcome.status, undefined);
    const thread = handle.state.thread;
    if (outcome.status === "completed" && thread !== undefined) {
      await appendToThread(settings.store, thread.id, outcome.result.messages, thread.known, thread.tokens);
    }
    return outcome;
  }

  /** A run that ended before: its answer again, without calling the model (a redelivered message). */
  async #ended(runId: string): Promise<DurableOutcome> {
    const record = await this.#context.agents.get(runId);
    const state = record?.state;
    if (record === undefined || state === undefined || record.status !== "completed") {
      throw new LlmError(
        "RUN_STATE_INVALID",
        `Endpoint '${this.#uri}': durable run '${runId}' ended as ${record?.status ?? "nothing"}: ${state?.error ?? "no answer recorded"}`,
      );
    }
    const { model } = this.#settings();
    return {
      status: "completed",
      result: {
        text: state.text ?? "",
        messages: state.messages,
        stopReason: state.stopReason ?? "stop",
        iterations: state.iteration,
        usage: { ...state.usage },
        provider: model.provider,
        model: model.model,
        toolCalls: state.toolCalls,
      },
    };
  }

  /** Tells tracing this instance works on the run now (`agent-run-acquired`). */
  #acquired(handle: RunHandle, exchangeId: string | undefined): void {
    const events = this.#context.events;
    if (!events.has("agent-run-acquired")) return;
    const { state } = handle;
    events.emit("agent-run-acquired", {
      runId: state.runId,
      routeId: state.routeId,
      iteration: state.iteration,
      version: handle.version,
      exchangeId,
      traces: state.traces?.slice() ?? [],
      keepTrace: (traceparent: string) => {
        if (typeof traceparent !== "string" || !TRACEPARENT.test(traceparent)) return;
        const traces = (state.traces ?? []).filter((kept) => kept !== traceparent);
        traces.push(traceparent);
        state.traces = traces.slice(-MAX_TRACES);
      },
    });
  }

  #released(handle: RunHandle, status: "parked" | "completed" | "interrupted", error: unknown): void {
    const events = this.#context.events;
    if (!events.has("agent-run-released")) return;
    const { state } = handle;
    events.emit("agent-run-released", {
      runId: state.runId,
      routeId: state.routeId,
      iteration: state.iteration,
      status,
      ...(error === undefined ? {} : { error }),
    });
  }

  #resumed(handle: RunHandle): void {
    // Version 1 is the run's creation; anything later is a run taken up again.
    if (handle.version <= 1) return;
    const events = this.#context.events;
    if (!events.has("agent-run-resumed")) return;
    const { state } = handle;
    events.emit("agent-run-resumed", {
      runId: state.runId,
      routeId: state.routeId,
      iteration: state.iteration,
      version: handle.version,
    });
  }
}
