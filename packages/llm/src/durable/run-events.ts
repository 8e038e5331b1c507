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
  }
}

export const AGENT_RUN_EVENT_TYPES = [
  "agent-run-checkpointed",
  "agent-run-parked",
  "agent-run-resumed",
] as const;
