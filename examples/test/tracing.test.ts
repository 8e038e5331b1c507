import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The environment without model keys, so the example replays the quickstart's transcript. */
function offlineEnvironment(): NodeJS.ProcessEnv {
  const environment = { ...process.env };
  for (const name of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY"]) delete environment[name];
  return environment;
}

describe("examples/tracing", () => {
  it("prints the span tree of the quickstart's agent run and its token usage", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "examples/tracing/main.ts"],
      {
        cwd: root,
        env: offlineEnvironment(),
        timeout: 110_000,
      },
    );
    expect(stdout).toContain("HTTP 200: There are 235 widgets in stock");
    const tree = stdout
      .split("\n")
      .filter((line) => /\((server|internal|client|consumer|producer)\)/.test(line))
      .map((line) => line.replace(/\s+\d+\.\d ms.*$/, "").trimEnd());
    expect(tree).toEqual([
      "POST /ask (server)",
      "  invoke_agent ask (internal)",
      "    chat gpt-4o-mini (client)",
      "    execute_tool http_fetch (internal)",
      "      process direct:llm.http_fetch (consumer)",
      "    chat gpt-4o-mini (client)",
      "    execute_tool json_path (internal)",
      "      process direct:llm.json_path (consumer)",
      "    execute_tool json_path (internal)",
      "      process direct:llm.json_path (consumer)",
      "    chat gpt-4o-mini (client)",
      "    execute_tool math_eval (internal)",
      "      process direct:llm.math_eval (consumer)",
      "    chat gpt-4o-mini (client)",
    ]);
    expect(stdout).toMatch(
      /invoke_agent ask \(internal\).*usage\.input_tokens=2787 usage\.output_tokens=298/,
    );
    expect(stdout).toContain("gen_ai.client.token.usage input: 2787 tokens in 4 calls");
    expect(stdout).toContain("gen_ai.client.token.usage output: 298 tokens in 4 calls");
  }, 120_000);
});
