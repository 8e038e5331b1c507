import { writeFile } from "node:fs/promises";
import { BENCHES } from "./benches.js";
import type { BenchRow } from "./harness.js";
import { printRow } from "./harness.js";

/**
 * One benchmark in a process of its own (started by run.ts): prints its rows as they come and
 * writes them, or why it did not run, as JSON to the file named by the second argument.
 */
export interface OneBenchOutcome {
  rows: BenchRow[];
  error?: string;
}

const [name, output] = process.argv.slice(2);
const quick = process.argv.includes("--quick");
let outcome: OneBenchOutcome;
try {
  const run = await BENCHES[name ?? ""]!();
  const rows = await run({ quick });
  for (const row of rows) printRow(row);
  outcome = { rows };
} catch (error) {
  outcome = { rows: [], error: error instanceof Error ? error.message : String(error) };
}
await writeFile(output ?? "", JSON.stringify(outcome));
