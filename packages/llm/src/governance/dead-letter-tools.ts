import type { Exchange, RouteContext } from "@routekit/core";
import { messageOf } from "@routekit/core/internal";
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
 * Sends every failed tool call of a run to `uri` (beside the error result the model reads): the step
 * waits for the deliveries before it ends (a streamed run: before its answer replaces the stream; a
 * resumed durable run: before its resume settles); a failed delivery is logged, never fails the run.
 */
export function deadLetterSender(context: RouteContext, stepUri: string, uri: string) {
  /** The letters of one run: `onToolError` sends one per failed call; `delivered` waits for them all. */
  const letters = (
    of: { runId: () => string; routeId: string | undefined; exchangeId: string },
    log: ToolErrorHandler,
  ) => {
    const sends: Promise<void>[] = [];
    const onToolError: ToolErrorHandler = (error, toolName, callId, argumentsText) => {
      log(error, toolName, callId, argumentsText);
      const letter: ToolDeadLetter = {
        runId: of.runId(),
        routeId: of.routeId,
        exchangeId: of.exchangeId,
        toolName,
        callId,
        arguments: argumentsText ?? "",
        error: { name: error.name, message: error.message },
      };
      sends.push(deliver(context, stepUri, uri, letter));
    };
    const delivered = async (): Promise<void> => {
      // A letter sent while earlier ones were delivered is waited for as well.
      for (let count = 0; count < sends.length; count = sends.length) await Promise.all(sends);
    };
    return { onToolError, delivered };
  };
  return {
    /** The letters of the run an exchange started (or took up again by its `llm.run.id`). */
    forRun(exchange: Exchange, log: ToolErrorHandler) {
      const runId = (): string => {
        const named = exchange.headers[LLM_RUN_ID_HEADER];
        return typeof named === "string" && named !== "" ? named : exchange.id;
      };
      return letters({ runId, routeId: exchange.routeId, exchangeId: exchange.id }, log);
    },
    /**
     * The letters of a durable run resumed without an exchange (after an approval, or by recovery):
     * `exchangeId` is the run's id.
     */
    forResumedRun(runId: string, routeId: string | undefined, log: ToolErrorHandler) {
      return letters({ runId: () => runId, routeId, exchangeId: runId }, log);
    },
  };
}

/** What `deadLetterSender` makes. */
export type DeadLetterSender = ReturnType<typeof deadLetterSender>;

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
    const reason = messageOf(error);
    context.logger.warn(
      `${stepUri}: the failed call of tool '${letter.toolName}' (run ${letter.runId}) was not delivered to ${uri}: ${reason}`,
    );
  }
}
