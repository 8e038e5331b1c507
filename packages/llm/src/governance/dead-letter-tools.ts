import type { Exchange, RouteContext } from "@routekit/core";
import { LLM_RUN_ID_HEADER } from "../durable/durable-runner.js";

/** What a tool dead-letter endpoint receives for a tool call that failed (after its own retries). */
export interface ToolDeadLetter {
  /** The durable run's id (header `llm.run.id`), else the id of the exchange whose run called the tool. */
  runId: string;
  routeId: string | undefined;
  exchangeId: string;
  toolName: string;
  callId: string;
  /** The call's arguments as the model wrote them (JSON text). */
  arguments: string;
  error: { name: string; message: string };
}

/** Header on the dead-letter exchange naming the failed tool. */
export const TOOL_DEAD_LETTER_TOOL_HEADER = "llm.deadLetter.tool";

type ToolErrorHandler = (error: Error, toolName: string, callId: string, argumentsText?: string) => void;

/**
 * Sends every failed tool call of a run to `uri` (beside the error result the model reads): the run
 * waits for the deliveries before it ends; a failed delivery is logged, never fails the run.
 */
export function deadLetterSender(context: RouteContext, stepUri: string, uri: string) {
  return {
    forRun(exchange: Exchange, log: ToolErrorHandler) {
      const sends: Promise<void>[] = [];
      const onToolError: ToolErrorHandler = (error, toolName, callId, argumentsText) => {
        log(error, toolName, callId, argumentsText);
        const runId = exchange.headers[LLM_RUN_ID_HEADER];
        const letter: ToolDeadLetter = {
          runId: typeof runId === "string" && runId !== "" ? runId : exchange.id,
          routeId: exchange.routeId,
          exchangeId: exchange.id,
          toolName,
          callId,
          arguments: argumentsText ?? "",
          error: { name: error.name, message: error.message },
        };
        sends.push(deliver(context, stepUri, uri, letter));
      };
      return {
        onToolError,
        delivered: async (): Promise<void> => {
          await Promise.all(sends);
        },
      };
    },
  };
}

async function deliver(
  context: RouteContext,
  stepUri: string,
  uri: string,
  letter: ToolDeadLetter,
): Promise<void> {
  try {
    const exchange = context.createExchange({
      body: letter,
      headers: { [TOOL_DEAD_LETTER_TOOL_HEADER]: letter.toolName },
    });
    await context.endpoint(uri).send(exchange);
    if (exchange.error !== undefined) throw exchange.error;
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    context.logger.warn(
      `${stepUri}: the failed call of tool '${letter.toolName}' (run ${letter.runId}) was not delivered to ${uri}: ${reason}`,
    );
  }
}
