import { expect } from "vitest";
import { LlmToolsError } from "../../src/index.js";

/** The error `action` throws; fails the test when it returns instead, or throws a non-Error. */
export function thrownBy(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    return error as Error;
  }
  throw new Error("expected the call to fail");
}

/** The LlmToolsError `action` throws; any other outcome fails the test. */
export function toolErrorThrownBy(action: () => unknown): LlmToolsError {
  const error = thrownBy(action);
  if (error instanceof LlmToolsError) return error;
  throw error;
}

/** The LlmToolsError `promise` rejects with; any other outcome fails the test. */
export async function toolErrorOf(promise: Promise<unknown>): Promise<LlmToolsError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LlmToolsError);
  return error as LlmToolsError;
}
