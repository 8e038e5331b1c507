// The two servers the durable-agent example talks to, on 127.0.0.1: a model speaking the Chat
// Completions wire format that counts requests per (run, turn) and checks each against the run
// store, and an effect server that counts charges per Idempotency-Key and takes approval requests.
// Both can kill the worker that called them at a chosen moment.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** When a server kills the worker that called it (the run and turn or charge it was working on). */
export type KillPoint = "model-call" | "after-model-reply" | "tool-call" | "after-tool-result" | "parked";

/** Kills the worker with this process id (the example restarts one in its place). */
export type Killer = (pid: number, point: KillPoint) => void;

/** Decides whether this request is the one to kill at: run id, turn (model) or call (tool). */
export type KillPlan = (point: KillPoint, runId: string, detail: string) => boolean;

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
}

function json(response: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

interface ChatRequest {
  messages: Array<{ role: string; content?: string | null }>;
}

/** True when the run store already holds the reply of this turn (it must never be asked again). */
export type CheckpointedTurn = (runId: string, turn: number) => Promise<boolean>;

/**
 * Turn 1 and 2 ask for a lookup and a charge each; turn 3 answers. Counts requests per "run:turn"
 * and who sent them, and the requests for a turn whose reply the run store already held.
 */
export async function startModel(plan: KillPlan, kill: Killer, checkpointed: CheckpointedTurn) {
  const requests = new Map<string, number>();
  /** The workers (process ids) that sent each "run:turn", in order. */
  const senders = new Map<string, number[]>();
  const checkpointedSentAgain: string[] = [];
  let counter = 0;
  const server = createServer(async (request, response) => {
    const chat = JSON.parse(await bodyOf(request)) as ChatRequest;
    const runId =
      String(chat.messages.find((message) => message.role === "user")?.content ?? "?").split(" ")[0] ?? "?";
    const turn = chat.messages.filter((message) => message.role === "assistant").length + 1;
    const key = `${runId}:${turn}`;
    requests.set(key, (requests.get(key) ?? 0) + 1);
    const worker = Number(request.headers["x-worker"]);
    senders.set(key, [...(senders.get(key) ?? []), worker]);
    if (await checkpointed(runId, turn)) checkpointedSentAgain.push(key);
    if (plan("model-call", runId, String(turn))) {
      kill(worker, "model-call");
      return;
    }
    counter += 1;
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    const message =
      turn < 3
        ? {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                id: `call_lookup_${turn}`,
                type: "function",
                function: { name: "lookup", arguments: JSON.stringify({ order: runId }) },
              },
              {
                id: `call_charge_${turn}`,
                type: "function",
                function: { name: "charge", arguments: JSON.stringify({ order: runId, cents: 100 * turn }) },
              },
            ],
          }
        : { role: "assistant", content: `${runId}: charged twice` };
    json(response, 200, {
      id: `chatcmpl-${counter}`,
      object: "chat.completion",
      created: 1_760_000_000,
      model: "agent",
      choices: [{ index: 0, message, finish_reason: turn < 3 ? "tool_calls" : "stop" }],
      usage,
    });
    if (plan("after-model-reply", runId, String(turn)))
      response.once("finish", () => kill(worker, "after-model-reply"));
  });
  const url = await listen(server);
  return {
    url,
    requests,
    senders,
    checkpointedSentAgain,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An approval request as the durable run sends it, and the worker that sent it. */
export interface ReceivedApproval {
  runId: string;
  callId: string;
  worker: number;
}

/**
 * Applies every charge it receives (counted per Idempotency-Key) and answers whether one was
 * applied; hands every approval request to `onApproval`, after answering it.
 */
export async function startEffects(
  plan: KillPlan,
  kill: Killer,
  onApproval: (approval: ReceivedApproval) => void,
) {
  const applied = new Map<string, number>();
  const received = new Map<string, number>();
  let withoutKey = 0;
  const server = createServer(async (request, response) => {
    const text = await bodyOf(request);
    const worker = Number(request.headers["x-worker"]);
    const url = request.url ?? "/";
    if (request.method === "GET" && url.startsWith("/charges/")) {
      const key = decodeURIComponent(url.slice("/charges/".length));
      json(
        response,
        200,
        applied.has(key) ? { applied: true, result: { charged: key } } : { applied: false },
      );
      return;
    }
    if (url.startsWith("/approvals")) {
      const { runId, callId } = JSON.parse(text) as { runId: string; callId: string };
      json(response, 202, { received: true });
      onApproval({ runId, callId, worker });
      return;
    }
    const key = request.headers["idempotency-key"];
    if (typeof key !== "string") withoutKey += 1;
    if (url.startsWith("/lookups")) {
      json(response, 200, { amount: 100 });
      return;
    }
    const effectKey = String(key);
    received.set(effectKey, (received.get(effectKey) ?? 0) + 1);
    const runId = effectKey.split(":")[0] ?? "?";
    if (plan("tool-call", runId, effectKey)) {
      kill(worker, "tool-call");
      return;
    }
    // No deduplication here: `applied` counts every charge made, so a repeat would show.
    applied.set(effectKey, (applied.get(effectKey) ?? 0) + 1);
    json(response, 200, { charged: effectKey, body: JSON.parse(text) });
    if (plan("after-tool-result", runId, effectKey))
      response.once("finish", () => kill(worker, "after-tool-result"));
  });
  const url = await listen(server);
  return {
    url,
    applied,
    received,
    withoutKey: () => withoutKey,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
