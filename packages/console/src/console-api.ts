import type { IncomingMessage, ServerResponse } from "node:http";
import { runJson, summariseRun } from "./agent-run.js";
import { ASSETS, readAsset } from "./assets.js";
import type { ConsoleStore } from "./console-store.js";
import { readCounters } from "./counters.js";
import { answerCall, listParkedRuns } from "./durable-runs.js";
import type { EventStreams } from "./event-stream.js";
import { MAX_STREAMS } from "./event-stream.js";
import { type ExchangeRecord, recordJson, recordMatches, summarise } from "./exchange-record.js";
import { sendBody, sendError, sendJson } from "./http-replies.js";
import { pageHtml } from "./page-html.js";
import { buildGraph } from "./route-graph.js";
import type { RunStatus } from "./run-outcome.js";
import { tokenOf } from "./token-check.js";

/** Longest search text and route id accepted. */
export const MAX_QUERY_LENGTH = 200;
const STATUSES = new Set<string>(["running", "completed", "failed", "cancelled"] satisfies RunStatus[]);

/** A request's handler: answers and returns, or returns a promise for the answer. */
type Handler = (
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  id: string,
) => void | Promise<void>;

function decodeId(raw: string): string | undefined {
  try {
    const id = decodeURIComponent(raw);
    return id.length === 0 || id.length > MAX_QUERY_LENGTH ? undefined : id;
  } catch {
    return undefined;
  }
}

/** POST /api/durable-runs/:runId/calls/:callId/approve or /deny. */
const ANSWER_PATH = /^\/api\/durable-runs\/([^/]+)\/calls\/([^/]+)\/(approve|deny)$/;

/** The console's HTTP API: GET for the page, its assets and the data; POST for start and stop. */
export function createApi(store: ConsoleStore, streams: EventStreams) {
  const context = store.context;
  const gets: Record<string, Handler> = {
    "/": (request, response, url) =>
      sendBody(response, "text/html; charset=utf-8", pageHtml(tokenOf(request, url))),
    "/api/graph": (_request, response) => sendJson(response, 200, buildGraph(context)),
    "/api/counters": (_request, response) => sendJson(response, 200, readCounters(context, store.registry)),
    "/api/exchanges": exchangeList(store),
    "/api/agent-runs": (_request, response) =>
      sendJson(response, 200, {
        agentRuns: store.agentRuns.runs.newestFirst().map(summariseRun),
        routeSpend: store.agentRuns.spendByRoute(),
      }),
    "/api/durable-runs": (_request, response) => listParkedRuns(context, response),
    "/api/events": (_request, response) => {
      if (streams.size >= MAX_STREAMS)
        return sendError(response, 503, `at most ${MAX_STREAMS} pages at once`);
      streams.add(response);
    },
  };
  const withId: Array<[RegExp, string, Handler]> = [
    [/^\/api\/exchanges\/([^/]+)$/, "GET", exchange(store)],
    [/^\/api\/agent-runs\/([^/]+)$/, "GET", agentRun(store)],
    [/^\/api\/routes\/([^/]+)\/start$/, "POST", routeAction(store, "start")],
    [/^\/api\/routes\/([^/]+)\/stop$/, "POST", routeAction(store, "stop")],
  ];

  return async (request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> => {
    const path = url.pathname;
    const method = request.method ?? "GET";
    const asset = ASSETS[path];
    const get = gets[path] ?? (asset === undefined ? undefined : () => serveAsset(response, path, asset));
    if (get !== undefined) {
      if (method !== "GET") return sendError(response, 405, `${path} answers GET only`);
      return get(request, response, url, "");
    }
    const answer = ANSWER_PATH.exec(path);
    if (answer !== null) {
      if (method !== "POST") return sendError(response, 405, `${path.slice(0, 100)} answers POST only`);
      const runId = decodeId(answer[1]!);
      const callId = decodeId(answer[2]!);
      if (runId === undefined || callId === undefined) {
        return sendError(response, 400, `an id is 1 to ${MAX_QUERY_LENGTH} characters of valid URL encoding`);
      }
      return answerCall(context, request, response, { runId, callId, approved: answer[3] === "approve" });
    }
    for (const [pattern, expected, handler] of withId) {
      const match = pattern.exec(path);
      if (match === null) continue;
      if (method !== expected) return sendError(response, 405, `${path} answers ${expected} only`);
      const id = decodeId(match[1]!);
      if (id === undefined) {
        return sendError(response, 400, `an id is 1 to ${MAX_QUERY_LENGTH} characters of valid URL encoding`);
      }
      return handler(request, response, url, id);
    }
    sendError(response, 404, `no such page or API: ${path.slice(0, 100)}`);
  };
}

async function serveAsset(response: ServerResponse, path: string, type: string): Promise<void> {
  try {
    sendBody(response, type, await readAsset(path));
  } catch (error) {
    sendError(response, 500, `the console's ${path} is missing from the package: ${String(error)}`);
  }
}

/** GET /api/exchanges: recorded exchanges, newest first, filtered by text, status and route. */
function exchangeList(store: ConsoleStore): Handler {
  return (_request, response, url) => {
    const query = url.searchParams.get("q") ?? "";
    const status = url.searchParams.get("status") ?? "";
    const route = url.searchParams.get("route") ?? "";
    const limitText = url.searchParams.get("limit") ?? "100";
    const limit = Number(limitText);
    if (query.length > MAX_QUERY_LENGTH || route.length > MAX_QUERY_LENGTH) {
      return sendError(response, 400, `a search text is at most ${MAX_QUERY_LENGTH} characters`);
    }
    if (status !== "" && !STATUSES.has(status)) {
      return sendError(
        response,
        400,
        `status must be running, completed, failed or cancelled, found '${status.slice(0, 40)}'`,
      );
    }
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      return sendError(
        response,
        400,
        `limit must be an integer from 1 to 1000, found '${limitText.slice(0, 40)}'`,
      );
    }
    const needle = query.toLowerCase();
    const matches = (record: ExchangeRecord): boolean =>
      (status === "" || record.status === status) &&
      (route === "" || record.routeId === route) &&
      (needle === "" || recordMatches(record, needle));
    const found = store.recorder.records.newestFirst().filter(matches);
    sendJson(response, 200, { total: found.length, exchanges: found.slice(0, limit).map(summarise) });
  };
}

/** GET /api/exchanges/:id: one recorded exchange. */
function exchange(store: ConsoleStore): Handler {
  return (_request, response, _url, id) => {
    const record = store.recorder.get(id);
    if (record === undefined) return sendError(response, 404, `no recorded exchange '${id}'`);
    sendJson(response, 200, recordJson(record));
  };
}

/** GET /api/agent-runs/:id: one agent run with the exchange of each tool call. */
function agentRun(store: ConsoleStore): Handler {
  return (_request, response, _url, id) => {
    const run = store.agentRuns.get(id);
    if (run === undefined) return sendError(response, 404, `no agent run '${id}'`);
    const byCall = new Map<string, string>();
    for (const record of store.recorder.records.newestFirst()) {
      if (record.toolCallId !== undefined) byCall.set(record.toolCallId, record.id);
    }
    sendJson(
      response,
      200,
      runJson(run, (callId) => byCall.get(callId)),
    );
  };
}

/** POST /api/routes/:id/start and /stop. */
function routeAction(store: ConsoleStore, action: "start" | "stop"): Handler {
  const context = store.context;
  return async (_request, response, _url, id) => {
    if (!context.routes().some((route) => route.id === id)) {
      return sendError(response, 404, `no route '${id}'`);
    }
    if (context.state !== "started") {
      return sendError(
        response,
        409,
        `the context is ${context.state}: routes start and stop only while it runs`,
      );
    }
    try {
      if (action === "start") await context.startRoute(id);
      else await context.stopRoute(id);
    } catch (error) {
      return sendError(response, 409, error instanceof Error ? error.message : String(error));
    }
    const state = context.routes().find((route) => route.id === id)?.state;
    sendJson(response, 200, { routeId: id, state });
  };
}
