import { sharedBudget } from "@routekit/core";

/**
 * Terminates the workers of the shared budget (where regex_extract runs the matches that leave the
 * calling thread) and fails the jobs still waiting or running. Kept for callers of earlier
 * versions; `sharedBudget().close()` does the same for every tool.
 */
export function shutdownRegexWorkers(): Promise<void> {
  return sharedBudget().close();
}
