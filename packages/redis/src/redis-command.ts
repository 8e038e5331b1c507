import { describeError, RedisStoreError } from "./redis-store-error.js";

/**
 * Runs one Redis call and turns its failure into a RedisStoreError saying where: a value of the
 * wrong type under a key (WRONGTYPE) is VALUE_CORRUPT, anything else (a lost connection, a
 * timeout) COMMAND_FAILED.
 */
export async function redisCommand<TResult>(
  where: string,
  what: string,
  run: () => Promise<TResult>,
): Promise<TResult> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof RedisStoreError) throw error;
    const message = describeError(error);
    if (message.includes("WRONGTYPE")) {
      throw new RedisStoreError(
        "VALUE_CORRUPT",
        `${where}: ${what} found a value of another type under the key (not written by routekit): ${message}`,
        { cause: error },
      );
    }
    const lost = /max retries per request|isn't writeable|Connection is closed|ECONNRE|timed out/i.test(
      message,
    );
    throw new RedisStoreError(
      "COMMAND_FAILED",
      `${where}: ${what} failed: ${lost ? `the connection is lost or not answering (${message})` : message}`,
      { cause: error },
    );
  }
}
