import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BENCHES } from "./benches.js";
import { type BenchRow, formatValue, pairedText } from "./harness.js";
import { mergeResults } from "./merge-results.js";
import type { OneBenchOutcome } from "./run-one.js";

/**
 * Runs one benchmark in a process of its own, as JMH forks a JVM per benchmark: V8 keeps what
 * it learnt about call sites and object shapes for the life of a process, so in one shared
 * process every benchmark would run on the feedback of those before it, and its rows would
 * depend on the order. (The steps benchmark prices that effect on purpose, in rows of its own.)
 */
async function runInOwnProcess(name: string, quick: boolean): Promise<BenchRow[]> {
  const directory = await mkdtemp(join(tmpdir(), "routekit-bench-"));
  const output = join(directory, "rows.json");
  try {
    const child = spawn(
      process.execPath,
      [
        ...process.execArgv,
        fileURLToPath(new URL("./run-one.ts", import.meta.url)),
        name,
        output,
        ...(quick ? ["--quick"] : []),
      ],
      { stdio: "inherit" },
    );
    const [code, signal] = (await once(child, "exit")) as [number | null, NodeJS.Signals | null];
    let outcome: OneBenchOutcome;
    try {
      outcome = JSON.parse(await readFile(output, "utf8")) as OneBenchOutcome;
    } catch {
      throw new Error(`its process ended (${signal ?? `exit code ${code}`}) without reporting rows`);
    }
    if (outcome.error !== undefined) throw new Error(outcome.error);
    return outcome.rows;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** Rows whose target is only context (no claim) show "—" instead of yes/no. */
const isClaim = (row: BenchRow): boolean => !/^(context|reported)/i.test(row.target);
const ratioText = (ratio: number): string => (ratio >= 0.1 ? ratio.toFixed(2) : ratio.toPrecision(2));

function table(rows: BenchRow[]): string {
  const lines = [
    "| benchmark | subject | median | spread | baseline | median | spread | ratio | paired (IQR) | target | met |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.benchmark} | ${row.subject} | ${formatValue(row, row.subjectStats.medianNs)} | ±${row.subjectStats.spreadPercent.toFixed(0)}% | ${row.baseline} | ${formatValue(row, row.baselineStats.medianNs)} | ±${row.baselineStats.spreadPercent.toFixed(0)}% | ${ratioText(row.ratio)} | ${pairedText(row)} | ${row.target} | ${isClaim(row) ? (row.met ? "yes" : "**no**") : "—"} |`,
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
      rows.push(...(await runInOwnProcess(name, quick)));
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
    "Paired is the same ratio taken round by round (subject run / baseline run of one round): its median and",
    "interquartile range; drift of the machine between rounds cancels in it.",
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
