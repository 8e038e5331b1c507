import type { ModelDelta } from "../model-types.js";
import type { RunToolLoopOptions } from "./tool-loop-types.js";

/**
 * A streaming model's deltas as parts of turn `iteration`: text, reasoning, and (with
 * `inputParts`) each tool call's start and argument fragments. `streamed.text` records that text came.
 */
export function deltaToParts(
  onPart: NonNullable<RunToolLoopOptions["onPart"]>,
  iteration: number,
  inputParts: boolean,
  streamed: { text: boolean },
): (delta: ModelDelta) => void {
  return (delta) => {
    switch (delta.type) {
      case "text-delta":
        streamed.text = true;
        onPart({ type: "text-delta", text: delta.text, iteration });
        return;
      case "reasoning-delta":
        onPart({ type: "reasoning-delta", text: delta.text, iteration });
        return;
      case "tool-input-start":
        if (inputParts) {
          onPart({ type: "tool-input-start", toolCallId: delta.callId, toolName: delta.toolName, iteration });
        }
        return;
      case "tool-input-delta":
        if (inputParts)
          onPart({ type: "tool-input-delta", toolCallId: delta.callId, delta: delta.text, iteration });
        return;
    }
  };
}
