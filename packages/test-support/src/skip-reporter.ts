import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";
import { SKIP_RECORD_VARIABLE, type SkipRecord } from "./skip-record.js";

/**
 * A vitest reporter that ends the run with how many service and browser tests were skipped, and
 * what was missing: a run on a machine without RabbitMQ, PostgreSQL, Redis or Chromium says so
 * instead of looking green. (With `CI=true` those tests fail instead of skipping.) Test files note
 * their skips through `skipForMissing`; the record travels to this process in a file named by an
 * environment variable that the test workers inherit.
 */
export default class SkipReporter implements Reporter {
  readonly #directory = mkdtempSync(join(tmpdir(), "routekit-skips-"));
  readonly #file = join(this.#directory, "skips.jsonl");
  #root = process.cwd();

  onInit(vitest: { config: { root: string } }): void {
    this.#root = vitest.config.root;
    process.env[SKIP_RECORD_VARIABLE] = this.#file;
    process.once("exit", () => rmSync(this.#directory, { recursive: true, force: true }));
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const records = this.#readRecords();
    rmSync(this.#file, { force: true });
    if (records.length === 0) return;
    const missingByFile = new Map<string, Set<string>>();
    for (const record of records) {
      const missing = missingByFile.get(record.testFile) ?? new Set<string>();
      missing.add(record.missing);
      missingByFile.set(record.testFile, missing);
    }
    let skipped = 0;
    const files: string[] = [];
    for (const testModule of testModules) {
      if (!missingByFile.has(testModule.moduleId)) continue;
      const count = [...testModule.children.allTests("skipped")].length;
      skipped += count;
      files.push(`  ${relative(this.#root, testModule.moduleId)}: ${count} skipped`);
    }
    const missing = [...new Set(records.map((record) => record.missing))].sort();
    console.log(
      `\n${skipped} service/browser tests skipped in ${files.length} files, missing: ${missing.join("; ")}` +
        `\n${files.sort().join("\n")}` +
        "\n(With CI=true they fail instead; .ci/run starts the services and installs Chromium.)\n",
    );
  }

  #readRecords(): SkipRecord[] {
    let text: string;
    try {
      text = readFileSync(this.#file, "utf8");
    } catch {
      return [];
    }
    return text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as SkipRecord);
  }
}
