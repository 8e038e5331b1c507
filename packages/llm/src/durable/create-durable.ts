import type { RouteContext } from "@routekit/core";
import { messageOf } from "@routekit/core/internal";
import { LlmError } from "../errors.js";
import type { DeadLetterSender } from "../governance/dead-letter-tools.js";
import { type DurableLoopSettings, DurableRunner } from "./durable-runner.js";

/** The durable side of an endpoint with `durable=true`, refused with streaming or an output schema. */
export function createDurable(
  context: RouteContext,
  uri: string,
  options: { stream?: boolean },
  hasOutput: boolean,
  deadLetters: DeadLetterSender | undefined,
  settings: () => DurableLoopSettings,
): DurableRunner {
  if (options.stream === true || hasOutput) {
    throw new LlmError(
      "OPTION_INVALID",
      `Endpoint '${uri}': durable=true cannot be combined with ${options.stream === true ? "stream=true" : "output"} (a durable run checkpoints whole turns and answers text)`,
    );
  }
  // A run resumed without an exchange sends its failed tool calls to the same endpoint.
  const lettersOfResumedRun =
    deadLetters === undefined
      ? undefined
      : (runId: string, routeId: string | undefined) =>
          deadLetters.forResumedRun(runId, routeId, (error, toolName, callId) =>
            context.logger.warn(
              `${uri}: tool '${toolName}' (call ${callId}) of resumed run ${runId} failed: ${messageOf(error)}`,
            ),
          );
  return new DurableRunner(context, uri, settings, lettersOfResumedRun);
}
