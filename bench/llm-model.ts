// The llm benches' loopback model: an OpenAI-compatible Chat Completions server that answers at
// once from the conversation's state — three tool calls in the first turn, the final text once
// every call was answered — counting what it saw. `startServer` runs it in the calling process;
// `startModelProcess` runs it in a child process (llm-model-process.ts) so that its CPU time and
// garbage are not the measured process's.
import { fork } from "node:child_process";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const MODEL = "bench-model";
export const PROMPT = "Add 2 and 3, upper-case 'routekit', and count the letters of 'camel'.";
export const FINAL_TEXT = "5, ROUTEKIT and 5.";

export interface ToolSpec {
  name: string;
  description: string;
  schema: Record<string, unknown>;
  run: (input: Record<string, unknown>) => string;
  callArguments: string;
}

const stringInput = (key: string) => ({
  type: "object",
  properties: { [key]: { type: "string" } },
  required: [key],
  additionalProperties: false,
});

export const TOOLS: ToolSpec[] = [
  {
    name: "add",
    description: "Add two numbers.",
    schema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
      additionalProperties: false,
    },
    run: (input) => String(Number(input.a) + Number(input.b)),
    callArguments: '{"a":2,"b":3}',
  },
  {
    name: "upper",
    description: "Upper-case a text.",
    schema: stringInput("text"),
    run: (input) => String(input.text).toUpperCase(),
    callArguments: '{"text":"routekit"}',
  },
  {
    name: "length",
    description: "Count the characters of a text.",
    schema: stringInput("text"),
    run: (input) => String(String(input.text).length),
    callArguments: '{"text":"camel"}',
  },
];

export interface WireMessage {
  role: string;
  content?: string | null;
  tool_call_id?: string;
  tool_calls?: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
}

/** What the loopback server saw: completed runs and the calls it found unanswered. */
export interface ServerTally {
  answeredTurns: number;
  problems: string[];
}

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

/** Answers a Chat Completions request from the conversation's state. */
function reply(messages: WireMessage[], tally: ServerTally, sequence: number): unknown {
  const last = messages[messages.length - 1];
  let message: WireMessage;
  let finishReason: string;
  if (last?.role === "tool") {
    const assistant = messages.findLast((candidate) => candidate.role === "assistant");
    const asked = (assistant?.tool_calls ?? []).map((call) => call.id);
    const answered = messages.filter((candidate) => candidate.role === "tool").map((m) => m.tool_call_id);
    if (asked.length !== TOOLS.length || asked.some((id) => !answered.includes(id)))
      tally.problems.push(`asked ${asked.join(",")} but answered ${answered.join(",")}`);
    else tally.answeredTurns++;
    message = { role: "assistant", content: FINAL_TEXT };
    finishReason = "stop";
  } else {
    message = {
      role: "assistant",
      content: null,
      tool_calls: TOOLS.map((spec, index) => ({
        id: `call_${sequence}_${index}`,
        type: "function",
        function: { name: spec.name, arguments: spec.callArguments },
      })),
    };
    finishReason = "tool_calls";
  }
  return {
    id: `chatcmpl-${sequence}`,
    object: "chat.completion",
    created: 1_700_000_000,
    model: MODEL,
    choices: [{ index: 0, message, finish_reason: finishReason }],
    usage: USAGE,
  };
}

/** A loopback OpenAI-compatible server answering instantly (keep-alive). */
export async function startServer(tally: ServerTally): Promise<{ server: Server; baseURL: string }> {
  let sequence = 0;
  const server = createServer(
    { keepAliveTimeout: 60_000 },
    (incoming: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { messages: WireMessage[] };
        const text = JSON.stringify(reply(body.messages, tally, sequence++));
        response.writeHead(200, {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(text),
        });
        response.end(text);
      });
    },
  );
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return { server, baseURL: `http://127.0.0.1:${port}/v1` };
}

/** The model server in a child process: its address, its tally on request, and stop. */
export interface ModelProcess {
  readonly baseURL: string;
  tally(): Promise<ServerTally>;
  stop(): void;
}

export async function startModelProcess(): Promise<ModelProcess> {
  const child = fork(new URL("./llm-model-process.ts", import.meta.url), [], {
    execArgv: process.execArgv,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const [ready] = (await once(child, "message")) as [{ baseURL: string }];
  return {
    baseURL: ready.baseURL,
    tally: async () => {
      child.send("tally");
      const [tally] = (await once(child, "message")) as [ServerTally];
      return tally;
    },
    stop: () => child.kill(),
  };
}
