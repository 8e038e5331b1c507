import type { RoutekitEvents } from "@routekit/core";
import type { LlmEventType } from "./agent-run-contract.js";
import type { LlmStreamPart } from "./tool-loop/stream-parts.js";
import type { ToolLoopEvent } from "./tool-loop/tool-loop-types.js";

type Without<TEvent, TKey extends string> = TEvent extends unknown ? Omit<TEvent, TKey> : never;
type EventOf<TType extends ToolLoopEvent["type"]> = Without<
  Extract<ToolLoopEvent, { type: TType }>,
  "type"
> & {
  /** The route whose LLM step made the call. */
  routeId: string | undefined;
  exchangeId: string;
};

declare module "@routekit/core" {
  interface RoutekitEvents {
    "model-call-started": EventOf<"model-call-started">;
    "model-call-completed": EventOf<"model-call-completed">;
    "model-call-failed": EventOf<"model-call-failed">;
    "tool-call-started": EventOf<"tool-call-started">;
    "tool-call-completed": EventOf<"tool-call-completed">;
    /** A part of a streaming llm step's run (`llm(...).stream()`), as it happens. */
    "llm-stream-part": {
      part: LlmStreamPart;
      routeId: string | undefined;
      exchangeId: string;
    };
  }
}

/** The payload of one agent-run event the llm step emits (`context.events.on(type, (event) => ...)`). */
export type LlmEvent<TType extends LlmEventType = LlmEventType> = RoutekitEvents[TType];
