import type { ModelRequest } from "@routekit/llm";
import { type ScriptedModel, scriptedModel } from "@routekit/llm/testing";

/** The output of the last tool answer in a request, parsed as JSON. */
function lastToolOutput(request: ModelRequest): Record<string, unknown> {
  const last = request.messages.at(-1);
  if (last?.role !== "tool" || last.results[0] === undefined) {
    throw new Error(`expected the request to end with a tool answer, found ${last?.role ?? "nothing"}`);
  }
  return JSON.parse(last.results[0].output) as Record<string, unknown>;
}

/**
 * A stand-in for a real model when no API key is set: it asks for the order, converts its total
 * with the answer it received, and writes the reply from both tool outputs.
 */
export function scriptedAgent(): ScriptedModel {
  let order: Record<string, unknown> = {};
  return scriptedModel(
    [
      { toolCalls: [{ name: "order_status", arguments: { orderId: "A-17" } }] },
      (request) => {
        order = lastToolOutput(request);
        return {
          toolCalls: [{ name: "convert_currency", arguments: { amount: order.totalUsd, to: "EUR" } }],
        };
      },
      (request) => {
        const converted = lastToolOutput(request);
        return {
          text: `Order A-17 is ${String(order.status)}; its total is ${String(converted.amount)} EUR.`,
        };
      },
    ],
    { provider: "scripted", model: "scripted-agent" },
  );
}
