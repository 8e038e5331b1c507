import { summariseRun } from "./agent-run.js";
import type { ConsoleStore } from "./console-store.js";
import { readCounters } from "./counters.js";
import { summarise } from "./exchange-record.js";

/** How many of the newest exchanges and runs each live update carries. */
export const LIVE_LIST_SIZE = 100;

/** What the event stream sends: counters now and the newest exchanges and agent runs. */
export function liveSnapshot(store: ConsoleStore) {
  return {
    version: store.version,
    counters: readCounters(store.context, store.registry),
    exchanges: store.recorder.records.newestFirst().slice(0, LIVE_LIST_SIZE).map(summarise),
    agentRuns: store.agentRuns.runs.newestFirst().slice(0, LIVE_LIST_SIZE).map(summariseRun),
    routeSpend: store.agentRuns.spendByRoute(),
  };
}
