/** What a run of some benchmarks contributes to RESULTS.md, already rendered. */
export interface PartialResults {
  /** The benchmark column of every row run (their old rows, baselines and notes are replaced). */
  readonly benchmarks: readonly string[];
  readonly tableRows: readonly string[];
  readonly baselines: readonly string[];
  readonly notes: readonly string[];
  /** The command that measured them, e.g. `pnpm bench direct steps`. */
  readonly command: string;
  readonly date: string;
}

/**
 * RESULTS.md with the rows of the benchmarks just run replaced (each old row of those benchmarks
 * goes, the new rows take the place of the first one, or come last when the benchmark is new),
 * and likewise their baseline and note lines; every other row stays as it was measured. A line
 * under the header says which rows were re-measured, with what command and when.
 */
export function mergeResults(existing: string, results: PartialResults): string {
  const names = new Set(results.benchmarks);
  const lines = existing.split("\n");
  const ownsRow = (line: string) => line.startsWith("| ") && names.has(line.split(" | ")[0]!.slice(2));
  const ownsBaseline = (line: string) => [...names].some((name) => line.startsWith(`- ${name} — `));
  const ownsNote = (line: string) => [...names].some((name) => line.startsWith(`- ${name}: `));
  const replace = (
    input: string[],
    owned: (line: string) => boolean,
    fresh: readonly string[],
    sectionEnd: (index: number) => boolean,
  ): string[] => {
    const output: string[] = [];
    let placed = false;
    for (const [index, line] of input.entries()) {
      if (owned(line)) {
        if (!placed) output.push(...fresh);
        placed = true;
        continue;
      }
      if (!placed && sectionEnd(index)) {
        output.push(...fresh);
        placed = true;
      }
      output.push(line);
    }
    if (!placed) output.push(...fresh);
    return output;
  };
  const tableEnd = lines.findIndex(
    (line, index) => index > 0 && lines[index - 1]!.startsWith("|") && !line.startsWith("|"),
  );
  let merged = replace(lines, ownsRow, results.tableRows, (index) => index === tableEnd);
  const baselinesEnd = (input: string[]) => {
    const start = input.indexOf("## Baselines");
    return input.findIndex((line, index) => index > start + 1 && start !== -1 && line === "");
  };
  let end = baselinesEnd(merged);
  merged = replace(merged, ownsBaseline, results.baselines, (index) => index === end);
  const notesStart = merged.indexOf("## Notes");
  end = merged.findIndex((line, index) => notesStart !== -1 && index > notesStart + 1 && line === "");
  merged = replace(merged, ownsNote, results.notes, (index) => index === end);
  if (results.benchmarks.length === 0) return merged.join("\n");
  const stamp = `Rows of ${results.benchmarks.filter((name, index, all) => all.indexOf(name) === index).join("; ")} re-measured by \`${results.command}\` on ${results.date}.`;
  const withoutOldStamp = merged.filter(
    (line) => !(line.startsWith("Rows of ") && line.includes(results.command)),
  );
  const machine = withoutOldStamp.findIndex((line) => line.startsWith("Machine: "));
  withoutOldStamp.splice(machine + 1, 0, stamp);
  return withoutOldStamp.join("\n");
}
