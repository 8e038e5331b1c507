import { didYouMean, truncateForMessage } from "@routekit/core/internal";

/** Throws for any key of `options` not in `known`, naming it and the nearest known one. */
export function refuseUnknownOptions(
  options: object,
  known: readonly string[],
  where: string,
  fail: (message: string) => Error,
): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw fail(
        `${where}: unknown option '${truncateForMessage(key)}'${didYouMean(key, known, { quoted: true })}; known options: ${known.join(", ")}`,
      );
    }
  }
}
