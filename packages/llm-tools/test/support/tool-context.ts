import { createContext, type RouteBuilder, type RouteContext, RouteStepError } from "@routekit/core";
import { expect } from "vitest";

/** A started context holding the given route builders; stop it after the test. */
export async function startToolContext(...builders: RouteBuilder[]): Promise<RouteContext> {
  const context = createContext();
  for (const builder of builders) await context.addRoutes(builder);
  await context.start();
  return context;
}

/**
 * The error a request fails with, unwrapped from the RouteStepError that names the route and
 * step (whose message repeats the tool's); throws when the request succeeds.
 */
export async function requestFailure(context: RouteContext, uri: string, body: unknown): Promise<Error> {
  const outcome = await context.request(uri, body).then(
    (reply) => ({ reply }),
    (error: unknown) => ({ error }),
  );
  if ("reply" in outcome)
    throw new Error(`expected ${uri} to fail, it replied ${JSON.stringify(outcome.reply)}`);
  let error = outcome.error;
  while (error instanceof RouteStepError) {
    expect(error.message).toContain(messageOf(error.cause));
    error = error.cause;
  }
  if (error instanceof Error) return error;
  throw new Error(`expected an Error, got ${String(error)}`);
}

function messageOf(value: unknown): string {
  return value instanceof Error ? value.message : String(value);
}
