import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createContext, type Exchange } from "@routekit/core";
import { map, Subject } from "rxjs";
import { type BenchOptions, type BenchRow, compareAll, printRow, rowOf } from "./harness.js";

// The same 5-step synchronous chain everywhere: each step adds one to a number.
const STEPS = 5;
const increment = (value: number) => value + 1;

/** The parts of the Node-RED embedding API this bench uses (node-red ships no types). */
interface NodeRedNode {
  receive(message: { payload: number }): void;
}
interface NodeRed {
  init(settings: Record<string, unknown>): void;
  start(): Promise<void>;
  stop(): Promise<void>;
  readonly nodes: { getNode(id: string): NodeRedNode | null };
  readonly runtime: { flows: { setFlows(request: { flows: { flows: unknown[] } }): Promise<unknown> } };
  readonly events: NodeJS.EventEmitter;
}

/** A node type for the end of the flow: hands each message to the function in `settings.benchSink`. */
const SINK_NODE_SOURCE = `module.exports = function (RED) {
  function BenchSink(config) {
    RED.nodes.createNode(this, config);
    const sink = RED.settings.benchSink;
    this.on("input", (msg, send, done) => { sink(msg); done(); });
  }
  RED.nodes.registerType("bench-sink", BenchSink);
};
`;
const SINK_NODE_HTML = `<script type="text/javascript">
RED.nodes.registerType("bench-sink", { category: "output", defaults: {}, inputs: 1, outputs: 0 });
</script>
`;

/** Deploys 5 function nodes wired in a line to a sink; resolves with the first node once started. */
async function deployChain(red: NodeRed): Promise<NodeRedNode> {
  const flow: unknown[] = [{ id: "bench-tab", type: "tab", label: "bench" }];
  for (let step = 1; step <= STEPS; step++) {
    flow.push({
      id: `step${step}`,
      type: "function",
      z: "bench-tab",
      func: "msg.payload = msg.payload + 1;\nreturn msg;",
      outputs: 1,
      wires: [[step < STEPS ? `step${step + 1}` : "sink"]],
    });
  }
  flow.push({ id: "sink", type: "bench-sink", z: "bench-tab", wires: [] });
  await red.runtime.flows.setFlows({ flows: { flows: flow } });
  // Flows start after setFlows resolves (and the empty flows of start() may report first).
  const deadline = Date.now() + 20_000;
  let first = red.nodes.getNode("step1");
  while (first === null && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    first = red.nodes.getNode("step1");
  }
  if (first === null)
    throw new Error("Node-RED deployed the flow but did not start node 'step1' within 20 s");
  return first;
}

let nodeRedStarted = false;

/**
 * Node-RED 4.1 embedded in this process: no editor, no admin or node HTTP, a temporary user
 * folder, and one flow of 5 function nodes ending in a sink node. `run(n)` feeds n messages into
 * the first function node keeping `window` in flight and resolves when the sink has seen them all.
 */
async function startNodeRed(window: number) {
  if (nodeRedStarted) throw new Error("Node-RED cannot be started twice in one process");
  nodeRedStarted = true;
  const userDir = await mkdtemp(join(tmpdir(), "routekit-bench-node-red-"));
  const nodesDir = join(userDir, "bench-nodes");
  await mkdir(nodesDir);
  await writeFile(join(nodesDir, "bench-sink.js"), SINK_NODE_SOURCE);
  await writeFile(join(nodesDir, "bench-sink.html"), SINK_NODE_HTML);

  let onMessage: (message: { payload: number }) => void = () => undefined;
  const red = createRequire(import.meta.url)("node-red") as NodeRed;
  red.init({
    userDir,
    flowFile: "flows.json",
    credentialSecret: false,
    httpAdminRoot: false,
    httpNodeRoot: false,
    disableEditor: true,
    nodesDir: [nodesDir],
    logging: { console: { level: "error", metrics: false, audit: false } },
    telemetry: { enabled: false, updateNotification: false },
    externalModules: { autoInstall: false },
    editorTheme: { projects: { enabled: false } },
    benchSink: (message: { payload: number }) => onMessage(message),
  });
  await red.start();
  let entry: NodeRedNode;
  try {
    entry = await deployChain(red);
  } catch (error) {
    await red.stop();
    await rm(userDir, { recursive: true, force: true });
    throw error;
  }

  const run = (iterations: number) =>
    new Promise<void>((resolve, reject) => {
      let sent = 0;
      let received = 0;
      let sum = 0;
      const timer = setTimeout(
        () => reject(new Error(`Node-RED delivered ${received} of ${iterations} messages within 60 s`)),
        60_000,
      );
      onMessage = (message) => {
        received++;
        sum += message.payload;
        if (sent < iterations) entry.receive({ payload: sent++ });
        else if (received === iterations) {
          clearTimeout(timer);
          // Every input 0..n-1 must come out with all steps applied: check the sum.
          const expected = (iterations * (iterations - 1)) / 2 + iterations * STEPS;
          if (sum === expected) resolve();
          else reject(new Error(`Node-RED delivered payloads summing to ${sum}, expected ${expected}`));
        }
      };
      while (sent < Math.min(window, iterations)) entry.receive({ payload: sent++ });
    });
  const stop = async () => {
    await red.stop();
    await rm(userDir, { recursive: true, force: true });
  };
  return { run, stop };
}

/**
 * A 5-step synchronous message chain three ways in one process: a routekit route requested N
 * times, a plain RxJS pipeline (a Subject with 5 maps) fed one value at a time, and Node-RED 4.1
 * embedded with 5 function nodes. Throws unless every message came out with all 5 steps applied.
 */
export async function runPeersBench(options: BenchOptions): Promise<BenchRow[]> {
  const context = createContext({ logLevel: "warn" });
  await context.addRoutes((r) => {
    const route = r.from("direct:p");
    for (let step = 0; step < STEPS; step++)
      route.process((exchange: Exchange) => {
        exchange.body = increment(exchange.body as number);
      });
  });
  await context.start();
  const routed = async (iterations: number) => {
    for (let index = 0; index < iterations; index++) {
      const reply = await context.request("direct:p", index);
      if (reply !== index + STEPS) throw new Error(`routekit replied ${String(reply)} for ${index}`);
    }
  };

  const subject = new Subject<number>();
  let rxReceived = 0;
  let rxWrong = 0;
  let rxExpected = 0;
  subject
    .pipe(map(increment), map(increment), map(increment), map(increment), map(increment))
    .subscribe((value) => {
      if (value !== rxExpected) rxWrong++;
      rxReceived++;
    });
  const rx = (iterations: number) => {
    for (let index = 0; index < iterations; index++) {
      rxExpected = index + STEPS;
      subject.next(index);
    }
  };

  const iterations = options.quick ? 20_000 : 200_000;
  const nodeRedIterations = options.quick ? 500 : 5_000;
  const runs = options.quick ? 3 : 9;
  const benchmark = "peers: 5-step synchronous chain";
  const subjectName = "routekit route (request, awaited)";
  const rows: BenchRow[] = [];
  let nodeRed: Awaited<ReturnType<typeof startNodeRed>> | undefined;
  try {
    // RxJS first, before Node-RED's runtime joins the heap; then Node-RED beside routekit again.
    const [routedStats, rxStats] = await compareAll([routed, rx], iterations, runs);
    if (rxWrong > 0 || rxReceived === 0) throw new Error(`RxJS: ${rxWrong} of ${rxReceived} values wrong`);
    if (routedStats === undefined || rxStats === undefined) throw new Error("missing stats");
    const rxRow = rowOf(
      {
        benchmark,
        subject: subjectName,
        baseline: "RxJS Subject + 5 maps (synchronous next)",
        baselineDescription:
          "a peer, not a hand-written baseline: an RxJS Subject piped through five map() calls, next() synchronous, no await",
        subjectStats: routedStats,
        baselineStats: rxStats,
        target: "≥ 0.5× RxJS throughput (ratio ≤ 2)",
      },
      (ratio) => ratio <= 2,
    );
    rows.push(rxRow);
    try {
      nodeRed = await startNodeRed(100);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      rxRow.note = `Node-RED row left out: ${reason}`;
      return rows;
    }
    const [routedAgain, nodeRedStats] = await compareAll(
      [routed, nodeRed.run],
      [iterations, nodeRedIterations],
      runs,
    );
    if (routedAgain === undefined || nodeRedStats === undefined) throw new Error("missing stats");
    const row = rowOf(
      {
        benchmark,
        subject: subjectName,
        baseline: "Node-RED 4.1 embedded, 5 function nodes (100 in flight)",
        baselineDescription:
          "a peer: Node-RED run embedded in this process, a flow of five function nodes, 100 messages in flight; Node-RED runs each function node's code in a vm sandbox, a cost routekit's processors do not pay",
        subjectStats: routedAgain,
        baselineStats: nodeRedStats,
        target: "context (no target)",
      },
      () => true,
    );
    row.note = `routekit ran ${(1 / row.ratio).toFixed(0)}× Node-RED's throughput (Node-RED over ${nodeRedIterations.toLocaleString("en-US")} messages per run; its function nodes run each message in a vm context)`;
    rows.push(row);
    return rows;
  } finally {
    subject.complete();
    await context.stop();
    await nodeRed?.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runPeersBench({ quick: process.argv.includes("--quick") });
  for (const row of rows) {
    printRow(row);
    if (row.note !== undefined) console.log(`  ${row.note}`);
  }
}
