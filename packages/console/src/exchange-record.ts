import type { RunStatus } from "./run-outcome.js";
import type { MessageSnapshot } from "./snapshot.js";

/** One run of one step inside a recorded exchange. */
export interface StepRun {
  readonly routeId: string;
  readonly path: string;
  readonly label: string;
  /** Milliseconds from the exchange's start to the step's start. */
  readonly startMs: number;
  durationMs: number | undefined;
  status: "running" | "completed" | "failed";
  error: string | undefined;
  /** The message as the step left it. */
  after: MessageSnapshot | undefined;
  /** The split parts and multicast copies the step made, each with its own steps (bounded). */
  parts: PartRun[] | undefined;
  /** Parts run after `partsPerStep` were kept (counted, not kept). */
  droppedParts: number;
}

/** The steps one split part or multicast copy ran, nested under the step that made it. */
export interface PartRun {
  /** The part's own exchange id (its `parentId` is the exchange the step ran on). */
  readonly exchangeId: string;
  /** Milliseconds from the recorded exchange's start to the part's first step. */
  readonly startMs: number;
  durationMs: number | undefined;
  status: "running" | "completed" | "failed";
  error: string | undefined;
  readonly steps: StepRun[];
  /** Steps run after the exchange's step budget was used up (counted, not kept). */
  droppedSteps: number;
}

/** One exchange as the console recorded it: where it entered, each step it ran, how it ended. */
export interface ExchangeRecord {
  readonly id: string;
  /** The route it entered first. */
  readonly routeId: string;
  /** Epoch milliseconds. */
  readonly startedAt: number;
  /** `performance.now()` at the start (not sent to the page). */
  readonly startTime: number;
  /** Until the reply's stream ended, when the route's reply streams (`llm(...).stream()`). */
  durationMs: number | undefined;
  /** `cancelled`: its caller stopped it (stopped reading the reply's stream, closed the connection). */
  status: RunStatus;
  error: string | undefined;
  /** The message as the first step received it. */
  readonly input: MessageSnapshot;
  /** The message as the last step left it. */
  output: MessageSnapshot | undefined;
  readonly steps: StepRun[];
  /** Steps kept in the whole timeline, its parts' included (at most `stepsPerExchange`). */
  keptSteps: number;
  /** Steps run after the timeline was full, its parts' included (counted, not kept). */
  droppedSteps: number;
  /** When the exchange is a tool call of an agent run: the call id. */
  readonly toolCallId: string | undefined;
}

/** The summary of a record the exchange list shows. */
export interface ExchangeSummary {
  readonly id: string;
  readonly routeId: string;
  readonly startedAt: number;
  readonly durationMs: number | undefined;
  readonly status: ExchangeRecord["status"];
  readonly error: string | undefined;
  readonly steps: number;
}

export function summarise(record: ExchangeRecord): ExchangeSummary {
  return {
    id: record.id,
    routeId: record.routeId,
    startedAt: record.startedAt,
    durationMs: record.durationMs,
    status: record.status,
    error: record.error,
    steps: record.keptSteps + record.droppedSteps,
  };
}

/** The record as JSON for the page (without its clock reading and step budget). */
export function recordJson(record: ExchangeRecord): Omit<ExchangeRecord, "startTime" | "keptSteps"> {
  const { startTime: _startTime, keptSteps: _keptSteps, ...rest } = record;
  return rest;
}

function snapshotText(snapshot: MessageSnapshot | undefined): string {
  if (snapshot === undefined) return "";
  return `${snapshot.body}\n${Object.entries(snapshot.headers)
    .map(([name, value]) => `${name}=${value}`)
    .join("\n")}`;
}

/** True when `query` (lower case) occurs in the record's id, route, status, error or messages. */
export function recordMatches(record: ExchangeRecord, query: string): boolean {
  const fields = [record.id, record.routeId, record.status, record.error ?? ""];
  if (fields.some((field) => field.toLowerCase().includes(query))) return true;
  if (snapshotText(record.input).toLowerCase().includes(query)) return true;
  if (snapshotText(record.output).toLowerCase().includes(query)) return true;
  return stepsMatch(record.steps, query);
}

function stepsMatch(steps: readonly StepRun[], query: string): boolean {
  return steps.some(
    (step) =>
      step.label.toLowerCase().includes(query) ||
      (step.error ?? "").toLowerCase().includes(query) ||
      (step.parts ?? []).some((part) => stepsMatch(part.steps, query)),
  );
}
