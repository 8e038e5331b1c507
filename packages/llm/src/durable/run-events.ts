import type { RunStatus } from "./run-state.js";

/** What every durable run event says. */
export interface AgentRunEventBase {
  runId: string;
  routeId: string | undefined;
  /** Model calls recorded so far. */
  iteration: number;
}

declare module "@routekit/core" {
  interface RoutekitEvents {
    /** A durable run's state was written (after a model turn, a tool result, a park or the end). */
    "agent-run-checkpointed": AgentRunEventBase & { status: RunStatus; version: number };
    /** A durable run waits for a person's answer to the calls named. */
    "agent-run-parked": AgentRunEventBase & { callIds: string[] };
    /** A durable run was taken up again from its checkpoint (after a crash, a redelivery or an approval). */
    "agent-run-resumed": AgentRunEventBase & { version: number };
    /**
     * This instance took a durable run's lease: a new run, or one taken up again. Tracing links the
     * spans of this stretch to the earlier ones (`traces`) and keeps its own (`keepTrace`).
     */
    "agent-run-acquired": AgentRunEventBase & {
      version: number;
      /** The exchange of the llm step working on the run; undefined when `context.agents` resumed it. */
      exchangeId: string | undefined;
      /** W3C traceparents of the spans that worked on the run before, oldest first. */
      traces: readonly string[];
      /** Keeps a W3C traceparent with the run (written at its next checkpoint; the last 16 are kept). */
      keepTrace(traceparent: string): void;
    };
    /** This instance stopped working on a durable run: it parked, completed, or was interrupted (its checkpoint stays). */
    "agent-run-released": AgentRunEventBase & {
      status: "parked" | "completed" | "interrupted";
      /** With "interrupted": what stopped it. */
      error?: unknown;
    };
  }
}

export const AGENT_RUN_EVENT_TYPES = [
  "agent-run-checkpointed",
  "agent-run-parked",
  "agent-run-resumed",
  "agent-run-acquired",
  "agent-run-released",
] as const;
