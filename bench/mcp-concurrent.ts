import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type BenchRow, compare, rowOf } from "./harness.js";

// Many clients at once: CLIENTS SDK Clients, each with its own Streamable HTTP session, call `add`
// concurrently (each client one call after the other) against routekit's server and against the
// bare SDK server, both child processes on 127.0.0.1. The time of a run over the calls it made is
// the inverse of the calls per second; every call's latency is kept for the p99.

const CLIENTS = 50;

/** A server process under test over HTTP: its URL, and how to end it. */
export interface HttpServerUnderTest {
  readonly url: string;
  close(): Promise<void>;
}

type FetchLike = typeof fetch;

async function connectClients(url: string, fetchImplementation: FetchLike): Promise<Client[]> {
  const clients: Client[] = [];
  for (let index = 0; index < CLIENTS; index++) {
    const client = new Client({ name: `bench-client-${index}`, version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: fetchImplementation }));
    clients.push(client);
  }
  return clients;
}

/** `iterations` calls per client, all clients at once; each call's latency into `latencies`. */
function concurrentCalls(clients: readonly Client[], toolName: string, latencies: number[]) {
  return async (iterations: number) => {
    await Promise.all(
      clients.map(async (client, clientIndex) => {
        for (let index = 0; index < iterations; index++) {
          const started = performance.now();
          const result = await client.callTool({ name: toolName, arguments: { a: clientIndex, b: index } });
          latencies.push(performance.now() - started);
          const content = result.content as Array<{ text?: string }>;
          if (result.isError === true || content[0]?.text !== String(clientIndex + index)) {
            throw new Error(`add(${clientIndex}, ${index}) answered ${JSON.stringify(result)}`);
          }
        }
      }),
    );
  };
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

/** The row of CLIENTS concurrent clients: routekit's server against the bare SDK server. */
export async function measureConcurrent(
  start: (side: "routekit" | "sdk") => Promise<HttpServerUnderTest>,
  toolName: string,
  fetchImplementation: FetchLike,
  callsPerClient: number,
  runs: number,
): Promise<BenchRow> {
  const routekit = await start("routekit");
  const sdk = await start("sdk").catch(async (error: unknown) => {
    await routekit.close();
    throw error;
  });
  const clients: Client[] = [];
  try {
    const routekitClients = await connectClients(routekit.url, fetchImplementation).catch(
      (error: unknown) => {
        throw new Error("connecting to routekit", { cause: error });
      },
    );
    clients.push(...routekitClients);
    const sdkClients = await connectClients(sdk.url, fetchImplementation).catch((error: unknown) => {
      throw new Error("connecting to the SDK server", { cause: error });
    });
    clients.push(...sdkClients);
    const latencies = { routekit: [] as number[], sdk: [] as number[] };
    const wall = await compare(
      concurrentCalls(routekitClients, toolName, latencies.routekit),
      concurrentCalls(sdkClients, toolName, latencies.sdk),
      callsPerClient,
      runs,
    );
    const callsPerRun = CLIENTS * callsPerClient;
    const perSecond = (nsPerIteration: number) => Math.round((CLIENTS * 1e9) / nsPerIteration);
    const p99 = (values: number[]) => `${percentile(values, 0.99).toFixed(1)} ms`;
    const p50 = (values: number[]) => `${percentile(values, 0.5).toFixed(1)} ms`;
    return rowOf(
      {
        benchmark: `MCP tools/call under load: ${CLIENTS} concurrent SDK Clients over Streamable HTTP (server in a child process on 127.0.0.1)`,
        subject: "routekit serveMcpHttp, a tool route, time per round of one call from each client",
        baseline: "bare SDK McpServer, the same",
        baselineDescription:
          "@modelcontextprotocol/sdk McpServer with the same tool, one per session, on StreamableHTTPServerTransport behind a bare node:http server (no Host, Origin or token checks), in a child process",
        subjectStats: wall.subject,
        baselineStats: wall.baseline,
        target: "≤ 1.0× the bare SDK's time (≥ 1.0× its calls per second)",
        note:
          `${callsPerRun} calls per run (${callsPerClient} per client, each answer checked); calls per second at the median: routekit ${perSecond(wall.subject.medianNs)}, bare SDK ${perSecond(wall.baseline.medianNs)}; ` +
          `latency p50 / p99 over all runs: routekit ${p50(latencies.routekit)} / ${p99(latencies.routekit)}, bare SDK ${p50(latencies.sdk)} / ${p99(latencies.sdk)}; the clients share the bench process, the same for both`,
      },
      (ratio) => ratio <= 1.0,
    );
  } finally {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await sdk.close();
    await routekit.close();
  }
}
