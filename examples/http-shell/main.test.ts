import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const main = fileURLToPath(new URL("./main.ts", import.meta.url));

describe("examples/http-shell", () => {
  it("answers through its own HTTP endpoint with one shell tool call, and exits 0", async () => {
    const environment = { ...process.env };
    delete environment.OPENAI_API_KEY;
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ["--import", "tsx", main],
        { env: environment, timeout: 60_000 },
        (error, stdout) => (error === null ? resolve(stdout) : reject(error)),
      );
    });
    expect(output).toContain("using a SCRIPTED model");
    expect(output).toMatch(/tool call {2}shell \{"program":"ls","args":\["-1"\]\}/);
    expect(output).toContain("HTTP 200: The working directory holds 2 files: notes.txt, todo.txt.");
  });
});
