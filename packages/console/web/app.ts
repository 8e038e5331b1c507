import { useCallback, useEffect, useState } from "preact/hooks";
import { AgentRunsList, RouteSpendTable, WaterfallView } from "./agent-runs-view.js";
import { getJson, openEvents, postJson } from "./api.js";
import { ExchangesList } from "./exchanges-view.js";
import { GraphView } from "./graph-view.js";
import { html } from "./html.js";
import { ParkedRunsList } from "./parked-runs-view.js";
import { RouteDetails, RoutesTable } from "./routes-table.js";
import { TimelineView } from "./timeline-view.js";
import type { AgentRun, ConsoleGraph, ExchangeRecord, ExchangeSummary, LiveSnapshot } from "./types.js";

const EMPTY: LiveSnapshot = { version: -1, counters: [], exchanges: [], agentRuns: [], routeSpend: [] };

/** The console page: graph and routes, then exchanges and agent runs side by side. */
export function App() {
  const [graph, setGraph] = useState<ConsoleGraph | undefined>(undefined);
  const [live, setLive] = useState<LiveSnapshot>(EMPTY);
  const [connection, setConnection] = useState("connecting");
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [selectedRoute, setSelectedRoute] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState<string | undefined>(undefined);
  const [query, setQuery] = useState("");
  const [found, setFound] = useState<readonly ExchangeSummary[] | undefined>(undefined);
  const [exchange, setExchange] = useState<ExchangeRecord | undefined>(undefined);
  const [run, setRun] = useState<AgentRun | undefined>(undefined);

  const loadGraph = useCallback(() => {
    getJson<ConsoleGraph>("/api/graph").then(setGraph, (error: Error) => setProblem(error.message));
  }, []);
  useEffect(() => {
    loadGraph();
    const events = openEvents();
    events.addEventListener("open", () => setConnection("live"));
    events.addEventListener("error", () => setConnection("disconnected"));
    events.addEventListener("snapshot", (event) => {
      setLive(JSON.parse((event as MessageEvent<string>).data) as LiveSnapshot);
      setConnection("live");
    });
    return () => events.close();
  }, [loadGraph]);

  // A route added or removed since the graph was drawn: draw it again.
  const routeIds = live.counters.map((counters) => counters.routeId).join("\n");
  useEffect(() => {
    if (
      graph !== undefined &&
      live.version >= 0 &&
      routeIds !== graph.routes.map((route) => route.id).join("\n")
    )
      loadGraph();
  }, [routeIds]);

  // Keep the open exchange and run current while they are running, and the search results.
  useEffect(() => {
    if (exchange !== undefined && exchange.status === "running") {
      getJson<ExchangeRecord>(`/api/exchanges/${encodeURIComponent(exchange.id)}`).then(
        setExchange,
        () => {},
      );
    }
    if (run !== undefined && run.status === "running") {
      getJson<AgentRun>(`/api/agent-runs/${encodeURIComponent(run.id)}`).then(setRun, () => {});
    }
    if (query !== "") search(query);
  }, [live.version]);

  const search = (text: string) => {
    setQuery(text);
    if (text === "") return setFound(undefined);
    getJson<{ exchanges: ExchangeSummary[] }>(`/api/exchanges?q=${encodeURIComponent(text)}`).then(
      (result) => setFound(result.exchanges),
      (error: Error) => setProblem(error.message),
    );
  };
  const openExchange = (id: string) =>
    getJson<ExchangeRecord>(`/api/exchanges/${encodeURIComponent(id)}`).then(setExchange, (error: Error) =>
      setProblem(error.message),
    );
  const openRun = (id: string) =>
    getJson<AgentRun>(`/api/agent-runs/${encodeURIComponent(id)}`).then(setRun, (error: Error) =>
      setProblem(error.message),
    );
  const act = (routeId: string, action: "start" | "stop") => {
    setBusy(routeId);
    postJson(`/api/routes/${encodeURIComponent(routeId)}/${action}`)
      .then(
        () => setProblem(undefined),
        (error: Error) => setProblem(error.message),
      )
      .finally(() => {
        setBusy(undefined);
        loadGraph();
      });
  };

  const selected = graph?.routes.find((route) => route.id === selectedRoute);
  return html`<header class="top">
      <h1>routekit console</h1>
      <p class="connection" role="status" aria-live="polite">events: <span class=${`connection-${connection}`}>${connection}</span></p>
    </header>
    ${problem === undefined ? null : html`<p class="problem" role="alert">${problem} <button onClick=${() => setProblem(undefined)}>dismiss</button></p>`}
    <main>
      <section class="panel graph-panel" aria-labelledby="graph-title">
        <h2 id="graph-title">Route graph</h2>
        <div class="graph-scroll">${graph === undefined ? html`<p>loading…</p>` : html`<${GraphView} graph=${graph} counters=${live.counters} selected=${selectedRoute} onSelect=${setSelectedRoute} />`}</div>
        ${graph !== undefined && graph.tools.length > 0 ? html`<p class="muted">tools without a route: ${graph.tools.map((tool) => tool.name).join(", ")}</p>` : null}
      </section>
      <section class="panel routes-panel" aria-labelledby="routes-title">
        <h2 id="routes-title">Routes</h2>
        ${graph === undefined ? null : html`<${RoutesTable} routes=${graph.routes} counters=${live.counters} busy=${busy} onAction=${act} onSelect=${setSelectedRoute} />`}
        ${selected === undefined ? null : html`<${RouteDetails} route=${selected} counters=${live.counters.find((counters) => counters.routeId === selected.id)} />`}
      </section>
      <section class="panel exchanges-panel" aria-labelledby="exchanges-title">
        <h2 id="exchanges-title">Recent exchanges</h2>
        <${ExchangesList} exchanges=${found ?? live.exchanges} query=${query} selected=${exchange?.id} onQuery=${search} onOpen=${openExchange} />
        ${exchange === undefined ? null : html`<${TimelineView} record=${exchange} />`}
      </section>
      <section class="panel runs-panel" aria-labelledby="runs-title">
        <h2 id="runs-title">Agent runs</h2>
        <${RouteSpendTable} spend=${live.routeSpend} />
        <${ParkedRunsList} version=${live.version} onProblem=${setProblem} />
        <${AgentRunsList} runs=${live.agentRuns} selected=${run?.id} onOpen=${openRun} />
        ${run === undefined ? null : html`<${WaterfallView} run=${run} onOpenExchange=${openExchange} />`}
      </section>
    </main>`;
}
