import { readFile, writeFile } from "node:fs/promises";
import { cpus, totalmem } from "node:os";
import { type BenchOptions, type BenchRow, formatValue, printRow } from "./harness.js";
import { mergeResults } from "./merge-results.js";

/** Every benchmark by name, loaded only when it runs. */
const BENCHES: Record<string, () => Promise<(options: BenchOptions) => Promise<BenchRow[]>>> = {
  direct: async () => (await import("./direct.js")).runDirectBench,
  seda: async () => (await import("./seda.js")).runSedaBench,
  eips: async () => (await import("./eips.js")).runEipsBench,
  steps: async () => (await import("./steps.js")).runStepsBench,
  console: async () => (await import("./console.js")).runConsoleBench,
  scaling: async () => (await import("./scaling.js")).runScalingBench,
  llm: async () => (await import("./llm.js")).runLlmBench,
  stream: async () => (await import("./stream.js")).runStreamBench,
  tools: async () => (await import("./tools.js")).runToolsBench,
  mcp: async () => (await import("./mcp.js")).runMcpBench,
  amqp: async () => (await import("./amqp.js")).runAmqpBench,
  http: async () => (await import("./http.js")).runHttpBench,
  stores: async () => (await import("./stores.js")).runStoresBench,
  otel: async () => (await import("./otel.js")).runOtelBench,
  // Last: Node-RED stays loaded in the process once started.
  peers: async () => (await import("./peers.js")).runPeersBench,
};

/** Rows whose target is only context (no claim) show "—" instead of yes/no. */
const isClaim = (row: BenchRow): boolean => !/^(context|reported)/i.test(row.target);
const ratioText = (ratio: number): string => (ratio >= 0.1 ? ratio.toFixed(2) : ratio.toPrecision(2));

function table(rows: BenchRow[]): string {
  const lines = [
    "| benchmark | subject | median | spread | baseline | median | spread | ratio | target | met |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.benchmark} | ${row.subject} | ${formatValue(row, row.subjectStats.medianNs)} | ±${row.subjectStats.spreadPercent.toFixed(0)}% | ${row.baseline} | ${formatValue(row, row.baselineStats.medianNs)} | ±${row.baselineStats.spreadPercent.toFixed(0)}% | ${ratioText(row.ratio)} | ${row.target} | ${isClaim(row) ? (row.met ? "yes" : "**no**") : "—"} |`,
    );
  }
  return lines.join("\n");
}

/** Each baseline once, in one line: what it does without routekit. */
function baselines(rows: BenchRow[]): string[] {
  const lines = new Map<string, string>();
  for (const row of rows) {
    const key = `${row.benchmark} — ${row.baseline}`;
    if (!lines.has(key)) lines.set(key, `- ${key}: ${row.baselineDescription ?? row.baseline}`);
  }
  return [...lines.values()];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes("--quick");
  const names = args.filter((arg) => !arg.startsWith("--"));
  const unknown = names.filter((name) => !(name in BENCHES));
  if (unknown.length > 0) {
    console.error(`Unknown benchmark ${unknown.join(", ")}; available: ${Object.keys(BENCHES).join(", ")}`);
    process.exit(2);
  }
  const selected = names.length > 0 ? names : Object.keys(BENCHES);
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  for (const name of selected) {
    const started = Date.now();
    console.log(`== ${name}${quick ? " (quick)" : ""}`);
    try {
      const run = await BENCHES[name]!();
      const result = await run({ quick });
      for (const row of result) printRow(row);
      rows.push(...result);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      notes.push(`- ${name}: not run — ${message}`);
      console.log(`${name}: not run — ${message}`);
      if (process.env.CI === "true" && !/broker|RabbitMQ|ECONNREFUSED/i.test(message)) process.exitCode = 1;
    }
    console.log(`   (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  if (quick && !args.includes("--write")) return;
  if (names.length > 0 && names.length < Object.keys(BENCHES).length) {
    // Some benchmarks only: their rows replace theirs in RESULTS.md, the other rows stay.
    const path = new URL("./RESULTS.md", import.meta.url);
    const merged = mergeResults(await readFile(path, "utf8"), {
      benchmarks: rows.map((row) => row.benchmark),
      tableRows: table(rows).split("\n").slice(2),
      baselines: baselines(rows),
      notes: [
        ...rows.filter((row) => row.note !== undefined).map((row) => `- ${row.benchmark}: ${row.note}`),
        ...notes,
      ],
      command: `pnpm bench ${names.join(" ")}${quick ? " --quick" : ""}`,
      date: new Date().toISOString().slice(0, 10),
    });
    await writeFile(path, merged);
    console.log("updated the rows of these benchmarks in bench/RESULTS.md");
    return;
  }
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  const report = [
    "# Benchmark results",
    "",
    `Written by \`pnpm bench${names.length > 0 ? ` ${names.join(" ")}` : ""}${quick ? " --quick" : ""}\` on ${new Date().toISOString().slice(0, 10)}.`,
    `Machine: ${cpu}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version} (${process.platform} ${process.arch}).`,
    "",
    "Each row measures a subject beside its baseline in the same process: after two warm-up rounds, every",
    "round runs each side once, the order rotating from round to round (AB, BA, …), with a young-generation",
    "collection before each timed run. Times are per operation (median over runs, spread = (max - min) / median,",
    "for each side). The ratio is subject / baseline time: it is the claim, the absolute numbers are context.",
    "amqp and http rows time whole runs against the broker or a load generator; their notes say how.",
    "A baseline is what a user would write without routekit, doing the same work, with no routekit objects.",
    "",
    table(rows),
    "",
    "## Baselines",
    "",
    ...baselines(rows),
    "",
    "## Notes",
    "",
    ...rows.filter((row) => row.note !== undefined).map((row) => `- ${row.benchmark}: ${row.note}`),
    ...notes,
    "",
    "Per-step cost against route length: [scaling.svg](scaling.svg).",
    "",
  ].join("\n");
  await writeFile(new URL("./RESULTS.md", import.meta.url), report);
  console.log("wrote bench/RESULTS.md");
}

await main();
