import type { BenchOptions, BenchRow } from "./harness.js";

/** Every benchmark by name, loaded only when it runs; `pnpm bench` runs them in this order. */
export const BENCHES: Record<string, () => Promise<(options: BenchOptions) => Promise<BenchRow[]>>> = {
  direct: async () => (await import("./direct.js")).runDirectBench,
  seda: async () => (await import("./seda.js")).runSedaBench,
  eips: async () => (await import("./eips.js")).runEipsBench,
  steps: async () => (await import("./steps.js")).runStepsBench,
  console: async () => (await import("./console.js")).runConsoleBench,
  scaling: async () => (await import("./scaling.js")).runScalingBench,
  routes: async () => (await import("./routes.js")).runRoutesBench,
  inflight: async () => (await import("./inflight.js")).runInflightBench,
  llm: async () => (await import("./llm.js")).runLlmBench,
  governance: async () => (await import("./governance.js")).runGovernanceBench,
  stream: async () => (await import("./stream.js")).runStreamBench,
  tools: async () => (await import("./tools.js")).runToolsBench,
  "budget-fairness": async () => (await import("./budget-fairness.js")).runBudgetFairnessBench,
  mcp: async () => (await import("./mcp.js")).runMcpBench,
  amqp: async () => (await import("./amqp.js")).runAmqpBench,
  http: async () => (await import("./http.js")).runHttpBench,
  stores: async () => (await import("./stores.js")).runStoresBench,
  durable: async () => (await import("./durable.js")).runDurableBench,
  otel: async () => (await import("./otel.js")).runOtelBench,
  peers: async () => (await import("./peers.js")).runPeersBench,
};
