import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createContext } from "@routekit/core";
import { type LlmPluginOptions, type LlmStepBuilder, llm, llmPlugin, openAiChat } from "@routekit/llm";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { request, fetch as undiciFetch } from "undici";
import { type BenchOptions, type BenchRow, printRow, rowOf, sampleAll, summarise } from "./harness.js";
import {
  FINAL_TEXT,
  MODEL,
  PROMPT,
  type ServerTally,
  startModelProcess,
  TOOLS,
  type WireMessage,
} from "./llm-model.js";

// One agent run: the model asks for three tool calls in one turn, every call is answered, then
// the model gives its final text. Two Chat Completions round trips per run.

export { FINAL_TEXT, MODEL, startServer } from "./llm-model.js";

/** Plugin options, step options and request headers added to the routekit agent (bench/governance.ts). */
export interface Governance {
  plugin?: Partial<LlmPluginOptions>;
  step?: (step: LlmStepBuilder<string>) => LlmStepBuilder<string>;
  headers?: Record<string, unknown>;
}

/** routekit: three tool routes and an llm: step, requested through direct:ask. */
export async function routekitAgent(
  baseURL: string,
  executed: { count: number },
  governance: Governance = {},
) {
  const context = createContext({ logLevel: "warn" });
  context.use(
    llmPlugin({
      models: { bench: openAiChat({ model: MODEL, baseURL, apiKey: "x" }) },
      ...governance.plugin,
    }),
  );
  await context.addRoutes((r) => {
    for (const spec of TOOLS) {
      r.from(`direct:tool.${spec.name}`)
        .asLlmTool(spec.name, { description: spec.description, input: spec.schema })
        .transform((exchange) => {
          executed.count++;
          return spec.run(exchange.body);
        });
    }
    const step = llm("bench").tools(...TOOLS.map((spec) => spec.name));
    r.from("direct:ask").to((governance.step?.(step) ?? step).uri());
  });
  await context.start();
  const headers = governance.headers;
  const run = (): Promise<unknown> =>
    headers === undefined
      ? context.request("direct:ask", PROMPT)
      : context.request("direct:ask", PROMPT, headers);
  return { run, stop: () => context.stop(), context };
}

/**
 * The Vercel AI SDK: generateText with three tools, up to five steps, on the given fetch (global
 * fetch by default, as users run it; undici's fetch for the same client routekit uses).
 */
function aiSdkAgent(baseURL: string, executed: { count: number }, client?: typeof globalThis.fetch) {
  const provider = createOpenAICompatible({ baseURL, name: "bench", apiKey: "x", fetch: client });
  const model = provider.chatModel(MODEL);
  const tools = Object.fromEntries(
    TOOLS.map((spec) => [
      spec.name,
      tool({
        description: spec.description,
        inputSchema: jsonSchema<Record<string, unknown>>(spec.schema),
        execute: async (input: Record<string, unknown>) => {
          executed.count++;
          return spec.run(input);
        },
      }),
    ]),
  );
  return async () => (await generateText({ model, prompt: PROMPT, tools, stopWhen: stepCountIs(5) })).text;
}

/** Posts a JSON text and returns the parsed reply: the only part that differs between clients. */
type PostJson = (url: string, headers: Record<string, string>, body: string) => Promise<unknown>;

/** undici.request, the client routekit's providers use. */
export const postWithUndici: PostJson = async (url, headers, body) => {
  const response = await request(url, { method: "POST", headers, body });
  return response.body.json();
};

/** Node's global fetch, the client the AI SDK uses. */
const postWithFetch: PostJson = async (url, headers, body) => {
  const response = await fetch(url, { method: "POST", headers, body });
  return response.json();
};

/**
 * A minimal hand-written loop — POST, parse, run the tools, POST again — over the given client.
 * `toolsOnce`: the tool definitions are serialised once and spliced into each request's text, as
 * routekit's OpenAI provider does, instead of with every request.
 */
export function handWrittenAgent(
  baseURL: string,
  executed: { count: number },
  post: PostJson,
  toolsOnce = false,
) {
  const url = `${baseURL}/chat/completions`;
  const headers = { "content-type": "application/json", authorization: "Bearer x" };
  const toolDefinitions = TOOLS.map((spec) => ({
    type: "function",
    function: { name: spec.name, description: spec.description, parameters: spec.schema },
  }));
  const byName = new Map(TOOLS.map((spec) => [spec.name, spec]));
  const head = `{"model":${JSON.stringify(MODEL)},"messages":`;
  const toolsText = `,"tools":${JSON.stringify(toolDefinitions)}}`;
  return async (): Promise<string> => {
    const messages: WireMessage[] = [{ role: "user", content: PROMPT }];
    for (let turn = 0; turn < 5; turn++) {
      const body = toolsOnce
        ? head + JSON.stringify(messages) + toolsText
        : JSON.stringify({ model: MODEL, messages, tools: toolDefinitions });
      const json = (await post(url, headers, body)) as { choices: Array<{ message: WireMessage }> };
      const message = json.choices[0]?.message;
      if (message === undefined) throw new Error("hand-written loop: a reply without choices");
      messages.push(message);
      if (message.tool_calls === undefined || message.tool_calls.length === 0) return message.content ?? "";
      for (const call of message.tool_calls) {
        const spec = byName.get(call.function.name);
        if (spec === undefined) throw new Error(`hand-written loop: unknown tool ${call.function.name}`);
        executed.count++;
        const output = spec.run(JSON.parse(call.function.arguments) as Record<string, unknown>);
        messages.push({ role: "tool", tool_call_id: call.id, content: output });
      }
    }
    throw new Error("hand-written loop: no final answer within 5 turns");
  };
}

/**
 * N agent runs of three tool calls each against a loopback OpenAI-compatible server, through
 * routekit's llm: step (on undici.request), the Vercel AI SDK (on global fetch) and the same
 * hand-written loop on each of those two clients, in the same process, so the reader sees what
 * is the client and what is the framework. Throws unless every run answered every tool call and
 * ended with the model's final text.
 */
export async function runLlmBench(options: BenchOptions): Promise<BenchRow[]> {
  const model = await startModelProcess();
  const baseURL = model.baseURL;
  const counts = {
    routekit: { count: 0 },
    aiSdkUndici: { count: 0 },
    aiSdk: { count: 0 },
    undiciLoop: { count: 0 },
    fetchLoop: { count: 0 },
    toolsOnceLoop: { count: 0 },
  };
  const routekit = await routekitAgent(baseURL, counts.routekit);
  const subjects = [
    routekit.run,
    aiSdkAgent(baseURL, counts.aiSdkUndici, undiciFetch as unknown as typeof globalThis.fetch),
    aiSdkAgent(baseURL, counts.aiSdk),
    handWrittenAgent(baseURL, counts.undiciLoop, postWithUndici),
    handWrittenAgent(baseURL, counts.fetchLoop, postWithFetch),
    handWrittenAgent(baseURL, counts.toolsOnceLoop, postWithUndici, true),
  ];
  const runsDone = subjects.map(() => 0);
  const operations = subjects.map((run, position) => async (iterations: number) => {
    for (let index = 0; index < iterations; index++) {
      const text = await run();
      if (text !== FINAL_TEXT) throw new Error(`subject ${position} answered ${JSON.stringify(text)}`);
    }
    runsDone[position] = (runsDone[position] ?? 0) + iterations;
  });
  try {
    // 16 rounds of 100 runs rather than 8 of 200: the same runs, alternated twice as often, so a
    // stretch of load from other processes falls in fewer of each side's rounds (see README).
    const iterations = options.quick ? 30 : 100;
    const samples = await sampleAll(operations, iterations, options.quick ? 4 : 16);
    const [routed, aiSdkUndici, aiSdk, undiciLoop, fetchLoop, toolsOnceLoop] = samples.map(summarise);
    const executions = [
      counts.routekit.count,
      counts.aiSdkUndici.count,
      counts.aiSdk.count,
      counts.undiciLoop.count,
      counts.fetchLoop.count,
      counts.toolsOnceLoop.count,
    ];
    const totalRuns = runsDone.reduce((sum, runs) => sum + runs, 0);
    executions.forEach((count, position) => {
      const expected = (runsDone[position] ?? 0) * TOOLS.length;
      if (count !== expected)
        throw new Error(`subject ${position}: ${count} tool executions, expected ${expected}`);
    });
    const tally: ServerTally = await model.tally();
    if (tally.problems.length > 0 || tally.answeredTurns !== totalRuns)
      throw new Error(
        `tool calls unanswered: ${tally.answeredTurns} of ${totalRuns} runs complete; ${tally.problems.slice(0, 3).join("; ")}`,
      );
    if (
      routed === undefined ||
      aiSdkUndici === undefined ||
      aiSdk === undefined ||
      undiciLoop === undefined ||
      fetchLoop === undefined ||
      toolsOnceLoop === undefined
    )
      throw new Error("missing stats");
    const multiple = (framework: number, client: number) => (framework / client).toFixed(2);
    // routekit over the undici loop round by round (both ran in every round): drift between
    // rounds cancels in these, unlike in the ratio of the two medians.
    const undiciSamples = samples[3] ?? [];
    const roundRatios = (samples[0] ?? []).map((ns, round) => ns / (undiciSamples[round] ?? ns));
    const roundRatio = summarise(roundRatios.length > 0 ? roundRatios : [Number.NaN]);
    const note =
      `${totalRuns} runs, ${executions.reduce((sum, count) => sum + count, 0)} tool calls, every call answered (checked by the server and by counting executions); ` +
      `routekit (undici.request) is ${multiple(routed.medianNs, undiciLoop.medianNs)}× the hand-written undici loop, the AI SDK (global fetch) ${multiple(aiSdk.medianNs, fetchLoop.medianNs)}× the hand-written fetch loop; ` +
      `the fetch loop is ${multiple(fetchLoop.medianNs, undiciLoop.medianNs)}× the undici loop (the client alone); ` +
      `round by round, routekit over the undici loop is ${roundRatio.medianNs.toFixed(2)}× (${roundRatio.minNs.toFixed(2)}–${roundRatio.maxNs.toFixed(2)}); ` +
      "the model server runs in a child process, so its CPU time is not the measured process's";
    const benchmark = "llm agent run (3 tool calls, 2 model turns, loopback server)";
    const undiciLoopDescription =
      "a hand-written loop on undici.request (routekit's client): POST, JSON parse, run the three tools, POST again";
    const fetchLoopDescription = "the same hand-written loop on global fetch (the AI SDK's client)";
    return [
      rowOf(
        {
          benchmark,
          subject: "routekit llm: step",
          baseline: "Vercel AI SDK generateText on undici's fetch",
          baselineDescription:
            "the Vercel AI SDK's generateText with the same three tools, its provider given undici's fetch: the same client library routekit uses, so the row compares frameworks",
          subjectStats: routed,
          baselineStats: aiSdkUndici,
          target: "≤ 0.3× AI SDK time",
          note,
        },
        (ratio) => ratio <= 0.3,
      ),
      rowOf(
        {
          benchmark,
          subject: "routekit llm: step",
          baseline: "Vercel AI SDK generateText",
          baselineDescription:
            "the Vercel AI SDK's generateText with the same three tools on global fetch, as users run it (the client rows below separate client from framework)",
          subjectStats: routed,
          baselineStats: aiSdk,
          target: "context (the AI SDK on its default client)",
        },
        () => true,
      ),
      rowOf(
        {
          benchmark,
          subject: "routekit llm: step",
          baseline: "hand-written undici loop",
          baselineDescription: undiciLoopDescription,
          subjectStats: routed,
          baselineStats: undiciLoop,
          target: "≤ 1.6× the loop on its own client",
        },
        (ratio) => ratio <= 1.6,
      ),
      rowOf(
        {
          benchmark,
          subject: "routekit llm: step",
          baseline: "hand-written undici loop, tools serialised once",
          baselineDescription:
            "the hand-written undici loop with its tool definitions serialised once and spliced into each request's text, as routekit's OpenAI provider does",
          subjectStats: routed,
          baselineStats: toolsOnceLoop,
          target: "context (the same loop without the work routekit saves by writing each tool's JSON once)",
        },
        () => true,
      ),
      rowOf(
        {
          benchmark,
          subject: "Vercel AI SDK generateText",
          baseline: "hand-written fetch loop",
          baselineDescription: fetchLoopDescription,
          subjectStats: aiSdk,
          baselineStats: fetchLoop,
          target: "context (the AI SDK over its own client)",
        },
        () => true,
      ),
      rowOf(
        {
          benchmark,
          subject: "hand-written fetch loop",
          baseline: "hand-written undici loop",
          baselineDescription: undiciLoopDescription,
          subjectStats: fetchLoop,
          baselineStats: undiciLoop,
          target: "context (the client alone: global fetch against undici.request)",
        },
        () => true,
      ),
    ];
  } finally {
    await routekit.stop();
    model.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runLlmBench({ quick: process.argv.includes("--quick") });
  for (const row of rows) printRow(row);
}
