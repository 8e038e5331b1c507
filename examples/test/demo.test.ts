import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const DEMO = ["--import", "tsx", "examples/quickstart/main.ts"];

/** The environment without model keys, so the demo replays its transcript. */
function offlineEnvironment(): NodeJS.ProcessEnv {
  const environment = { ...process.env };
  for (const name of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY"]) delete environment[name];
  return environment;
}

describe("pnpm demo", () => {
  it("shows the tools, the enrichment pipeline and the answer to POST /ask, then exits 0", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, DEMO, {
      cwd: root,
      env: offlineEnvironment(),
      timeout: 30_000,
    });
    // says plainly that it replays
    expect(stdout).toContain("REPLAYING examples/quickstart/transcript.openai.json");
    // 1. tool routes mounted with the wrappers
    for (const tool of ["http_fetch", "json_path", "math_eval", "regex_extract", "xpath"]) {
      expect(stdout).toMatch(new RegExp(`^ {3}${tool} +\\S`, "m"));
    }
    // 2. enrichment through the local server
    expect(stdout).toContain("[enrich] stock of W-1 per warehouse: [140,95]");
    expect(stdout).toContain("[enrich] stock of G-2 per warehouse: [8,30]");
    // 3. the tool trace of the LLM step: arguments, outcome, duration and result
    expect(stdout).toMatch(/-> tool http_fetch url="http:\/\/127\.0\.0\.1:\d+\/inventory"/);
    expect(stdout).toMatch(/<- tool http_fetch ok in [\d.]+ ms: \{"items":\[\{"sku":"W-1"/);
    expect(stdout).toMatch(
      /-> tool json_path json=.* path="\$\.items\[\?\(@\.name=='widget'\)\]\.warehouses\[\*\]\.stock"/,
    );
    expect(stdout).toMatch(/<- tool json_path ok in [\d.]+ ms: \[140,95\]/);
    expect(stdout).toMatch(/<- tool json_path ok in [\d.]+ ms: \[3\.5\]/);
    expect(stdout).toMatch(/-> tool math_eval expression="\(140 \+ 95\) \* 3\.5"/);
    expect(stdout).toMatch(/<- tool math_eval ok in [\d.]+ ms: 822\.5/);
    expect(stdout).toMatch(/model call 4: openai\/gpt-4o-mini -> stop/);
    expect(stdout).not.toContain("ERROR");
    // the answer came back over HTTP
    expect(stdout).toContain("HTTP 200");
    expect(stdout).toContain("answer: There are 235 widgets in stock");
    expect(stdout).toContain("stopped cleanly");
  }, 45_000);

  it("fails with a clear message, exit code 1, when a tool call of its request fails", async () => {
    // A live OpenAI-compatible model on 127.0.0.1 asks for one math_eval the tool must refuse, then
    // answers as if nothing happened: the demo may not pass on the model's word.
    const model = await startScriptedModel([
      {
        tool_calls: [
          {
            id: "call_1",
            type: "function",
            function: { name: "math_eval", arguments: '{"expression":"2 +"}' },
          },
        ],
      },
      { content: "There are 235 widgets." },
    ]);
    try {
      const environment = { ...offlineEnvironment(), OPENAI_BASE_URL: model.url, OPENAI_API_KEY: "test-key" };
      const failure = await promisify(execFile)(process.execPath, DEMO, {
        cwd: root,
        env: environment,
        timeout: 30_000,
      })
        .then(() => undefined)
        .catch((error: unknown) => error as { code: number; stdout: string; stderr: string });
      expect(failure?.code).toBe(1);
      expect(failure?.stdout).toContain("HTTP 200");
      expect(failure?.stderr).toContain("demo FAILED: 1 of 1 tool calls failed");
      expect(failure?.stderr).toMatch(/ {3}math_eval: .*expression/);
    } finally {
      await model.close();
    }
  }, 45_000);

  describe("--serve", () => {
    let child: ChildProcessWithoutNullStreams | undefined;
    afterEach(() => {
      if (child !== undefined && child.exitCode === null) child.kill("SIGKILL");
      child = undefined;
    });

    it("keeps POST /ask up for curl, answers again, refuses a body without a question, stops on SIGINT", async () => {
      const started = spawn(process.execPath, [...DEMO, "--serve"], { cwd: root, env: offlineEnvironment() });
      child = started;
      let output = "";
      started.stdout.setEncoding("utf8");
      started.stdout.on("data", (chunk: string) => {
        output += chunk;
      });
      const exited = new Promise<number | null>((resolve) => started.once("exit", (code) => resolve(code)));
      await waitFor(
        () => output.includes("Press Ctrl+C to stop."),
        30_000,
        () => output,
      );

      const match = /curl -s -X POST (http:\/\/127\.0\.0\.1:\d+\/ask)/.exec(output);
      expect(match).not.toBeNull();
      const askUrl = match?.[1] ?? "";
      const ask = (body: unknown) =>
        fetch(askUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });

      const answered = await ask({ question: "How many widgets are in stock?" });
      expect(answered.status).toBe(200);
      const reply = (await answered.json()) as { answer: string; toolCalls: number; stopReason: string };
      expect(reply.answer).toContain("235 widgets");
      expect(reply.toolCalls).toBe(4);
      expect(reply.stopReason).toBe("stop");

      const refused = await ask({ text: "no question here" });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({ error: 'expected a JSON body like {"question": "..."}' });

      started.kill("SIGINT");
      expect(await exited).toBe(0);
      expect(output).toContain("stopped cleanly");
    }, 45_000);
  });
});

async function waitFor(condition: () => boolean, timeoutMs: number, describe: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting; output so far:\n${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * An OpenAI-compatible Chat Completions server on 127.0.0.1 answering each request with the next
 * scripted assistant message (tool calls, or a final text).
 */
async function startScriptedModel(messages: readonly Record<string, unknown>[]) {
  let turn = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const message = messages[Math.min(turn, messages.length - 1)] ?? {};
      turn += 1;
      const finishReason = "tool_calls" in message ? "tool_calls" : "stop";
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          id: `chatcmpl-demo${turn}`,
          object: "chat.completion",
          created: 1_760_000_000,
          model: "gpt-4o-mini",
          choices: [
            {
              index: 0,
              message: { role: "assistant", content: null, ...message },
              finish_reason: finishReason,
            },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
