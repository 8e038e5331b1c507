import { LlmError, ModelRequestError } from "../errors.js";
import { excerpt } from "./http-retry.js";
import { describeWireValue, isWireObject } from "./wire-shape.js";

/** The most tool calls (or content blocks) one streamed turn may open. */
export const MAX_STREAM_PARTS = 256;

/** A stream that ended (cleanly, at the transport level) before its last event: it broke mid-way. */
export function streamEndedEarly(provider: string, where: string, missing: string): ModelRequestError {
  return new ModelRequestError(
    `${where} broke mid-way: the connection closed before ${missing} (not retried: part of the answer was already delivered)`,
    { provider },
  );
}

/** The provider sent an `error` event in the middle of its stream. */
export function streamErrorEvent(provider: string, where: string, detail: string): ModelRequestError {
  return new ModelRequestError(
    `${where} broke mid-way: the server sent an error event: ${excerpt(detail, [])}`,
    {
      provider,
    },
  );
}

/** What an `error` event says: its `type: message`, or a description of what came instead. */
export function errorEventDetail(error: unknown): string {
  if (isWireObject(error) && typeof error.message === "string") {
    return typeof error.type === "string" ? `${error.type}: ${error.message}` : error.message;
  }
  return describeWireValue(error);
}

/** An event whose data is not JSON. */
export function streamEventNotJson(where: string, data: string, cause: unknown): LlmError {
  return new LlmError(
    "MODEL_RESPONSE_INVALID",
    `${where}: expected each event's data to be JSON, got ${excerpt(data, [])}`,
    { cause },
  );
}

/** Parses an event's data as JSON, failing with `MODEL_RESPONSE_INVALID` otherwise. */
export function parseEventData(where: string, data: string): unknown {
  try {
    return JSON.parse(data);
  } catch (error) {
    throw streamEventNotJson(where, data, error);
  }
}
