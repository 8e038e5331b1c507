import type { RouteContext } from "@routekit/core";
import type { CheckpointQuery } from "@routekit/core/internal";
import { messageOf } from "@routekit/core/internal";
import { LlmError } from "../errors.js";
import { requireDurable } from "./durable-settings.js";
import type { DurableOutcome } from "./run-durable-loop.js";
import type { ApprovalState } from "./run-state.js";
import type { RunRecord } from "./run-store.js";

/** A person's answer to a call that waits for approval. */
export interface ApprovalAnswer {
  approved: boolean;
  /** Why; the model reads it with a denial. */
  reason?: string;
  /** Who answered (kept with the run). */
  by?: string;
}

/** What resumes a run of one `llm:` endpoint in this instance. */
export type RunResumer = (runId: string) => Promise<DurableOutcome | "busy" | "ended">;

/**
 * `context.agents`: the durable runs of every instance sharing the store — listed and read from the
 * store, answered (approvals) and resumed on whichever instance is asked.
 */
export class AgentRuns {
  readonly #context: RouteContext;
  /** Resumers by endpoint URI, registered by the durable llm endpoints of this context. */
  readonly resumers = new Map<string, RunResumer>();

  constructor(context: RouteContext) {
    this.#context = context;
  }

  /** The run as the store holds it now, or undefined. */
  async get(runId: string): Promise<RunRecord | undefined> {
    const { store } = requireDurable(this.#context, "context.agents.get");
    return (await store.get(runId)) as RunRecord | undefined;
  }

  /** Runs of every instance, e.g. `{ status: "parked" }`. */
  async list(query?: CheckpointQuery): Promise<RunRecord[]> {
    const { store } = requireDurable(this.#context, "context.agents.list");
    return (await store.list(query)) as RunRecord[];
  }

  /**
   * Records a person's answer to call `callId` of run `runId` and, once every call of the turn that
   * waited has its answer, resumes the run here. Answers the run's outcome, or "waiting" while other
   * calls still wait (or another instance holds the run). The same answer given again is accepted
   * (a redelivered answer resumes a run whose first answerer died); a different answer to a call
   * that no longer waits is refused.
   */
  async approve(runId: string, callId: string, answer: ApprovalAnswer): Promise<DurableOutcome | "waiting"> {
    if (answer === null || typeof answer !== "object" || typeof answer.approved !== "boolean") {
      throw new LlmError(
        "OPTION_INVALID",
        `context.agents.approve('${runId}', '${callId}'): expected an answer { approved: boolean, reason?, by? }`,
      );
    }
    const record = await this.#answer(runId, callId, {
      status: answer.approved ? "approved" : "denied",
      ...(answer.reason === undefined ? {} : { reason: String(answer.reason).slice(0, 1000) }),
      ...(answer.by === undefined ? {} : { by: String(answer.by).slice(0, 200) }),
    });
    const waiting = Object.values(record.state.approvals).some((approval) => approval.status === "pending");
    if (waiting) return "waiting";
    const outcome = await this.resume(runId);
    return outcome === "busy" || outcome === "ended" ? "waiting" : outcome;
  }

  /** Takes run `runId` up here from its checkpoint: "busy" when another instance holds it, "ended" when it finished. */
  async resume(runId: string): Promise<DurableOutcome | "busy" | "ended"> {
    const record = await this.get(runId);
    if (record === undefined)
      throw new LlmError("RUN_NOT_FOUND", `context.agents.resume: no durable run '${runId}' in the store`);
    const uri = record.state.endpointUri;
    // Looking the endpoint up creates it in this instance when its routes did not use it yet.
    this.#context.endpoint(uri);
    const resumer = this.resumers.get(uri);
    if (resumer === undefined) {
      throw new LlmError(
        "RUN_STATE_INVALID",
        `context.agents.resume: run '${runId}' belongs to '${uri}', which is not a durable llm endpoint here`,
      );
    }
    return resumer(runId);
  }

  /**
   * One recovery pass: resumes runs whose owner's lease expired and parked runs whose every call has
   * its answer (the answering instance died before it resumed them), and turns approvals pending
   * longer than `approvalTimeoutMs` into denials. Answers the ids of the runs taken up.
   */
  async recover(): Promise<string[]> {
    const settings = requireDurable(this.#context, "context.agents.recover");
    const now = Date.now();
    const resumed: string[] = [];
    const resumeHere = async (runId: string): Promise<void> => {
      const outcome = await this.resume(runId).catch((error: unknown) => this.#warn(runId, error));
      if (outcome !== undefined && outcome !== "busy" && outcome !== "ended") resumed.push(runId);
    };
    for (const record of await this.list({ status: "running", leaseExpiredBefore: now })) {
      await resumeHere(record.id);
    }
    const parked = await this.list({ status: "parked" });
    for (const record of parked) {
      const answered = Object.values(record.state.approvals).every(
        (approval) => approval.status !== "pending",
      );
      if (answered) await resumeHere(record.id);
    }
    const timeout = settings.approvalTimeoutMs;
    if (timeout === undefined) return resumed;
    for (const record of parked) {
      for (const [callId, approval] of Object.entries(record.state.approvals)) {
        if (approval.status !== "pending" || approval.requestedAt + timeout > now) continue;
        const answer = { approved: false, reason: `no answer within ${timeout} ms`, by: "timeout" };
        const outcome = await this.approve(record.id, callId, answer).catch((error: unknown) =>
          this.#warn(record.id, error),
        );
        if (outcome !== undefined && outcome !== "waiting") resumed.push(record.id);
      }
    }
    return resumed;
  }

  async #answer(
    runId: string,
    callId: string,
    answer: Pick<ApprovalState, "status" | "reason" | "by">,
  ): Promise<RunRecord> {
    const { store } = requireDurable(this.#context, "context.agents.approve");
    for (let attempt = 0; attempt < 5; attempt++) {
      const record = await this.get(runId);
      if (record === undefined)
        throw new LlmError("RUN_NOT_FOUND", `context.agents.approve: no durable run '${runId}' in the store`);
      if (record.status === "completed" || record.status === "failed") {
        throw new LlmError(
          "RUN_STATE_INVALID",
          `context.agents.approve: run '${runId}' has ended (${record.status}); call '${callId}' waits no more`,
        );
      }
      const approval = record.state.approvals[callId];
      // The same answer again (a redelivered answer message, a second click): nothing to write;
      // the caller resumes the run if the first answer's instance died before it could.
      if (approval !== undefined && approval.status === answer.status) return record;
      if (approval?.status !== "pending") {
        const found = approval === undefined ? "has no such call waiting" : `was already ${approval.status}`;
        throw new LlmError(
          "RUN_STATE_INVALID",
          `context.agents.approve: call '${callId}' of run '${runId}' ${found}`,
        );
      }
      const state = {
        ...record.state,
        approvals: { ...record.state.approvals, [callId]: { ...approval, ...answer } },
      };
      const next: RunRecord = { ...record, version: record.version + 1, updatedAt: Date.now(), state };
      if (await store.write(next)) return next;
    }
    throw new LlmError(
      "RUN_CONFLICT",
      `context.agents.approve: run '${runId}' kept changing while the answer to '${callId}' was written`,
    );
  }

  #warn(runId: string, error: unknown): undefined {
    const reason = messageOf(error);
    this.#context.logger.warn(`durable run '${runId}': recovery could not resume it: ${reason}`);
    return undefined;
  }
}
