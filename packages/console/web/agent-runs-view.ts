import { formatMs, formatTime, formatUsd } from "./format.js";
import { html } from "./html.js";
import type { AgentRun, AgentRunSummary, RouteSpend } from "./types.js";

/** Tokens and cost of each route's agent runs. */
export function RouteSpendTable(props: { spend: readonly RouteSpend[] }) {
  if (props.spend.length === 0) return null;
  return html`<table class="spend" aria-label="spend by route">
    <thead><tr><th>route</th><th>runs</th><th>tokens in / out</th><th>cached in</th><th>cost</th></tr></thead>
    <tbody>
      ${props.spend.map(
        (route) => html`<tr key=${route.routeId}>
          <td>${route.routeId}</td><td>${route.runs}</td><td>${route.inputTokens} / ${route.outputTokens}</td>
          <td>${route.cachedInputTokens}</td><td class="cost">${formatUsd(route.costUsd)}</td>
        </tr>`,
      )}
    </tbody>
  </table>`;
}

/** The recent agent runs, newest first. */
export function AgentRunsList(props: {
  runs: readonly AgentRunSummary[];
  selected: string | undefined;
  onOpen: (id: string) => void;
}) {
  return html`<ul class="list" aria-label="agent runs">
    ${props.runs.length === 0 ? html`<li class="empty">no agent runs yet</li>` : null}
    ${props.runs.map(
      (run) => html`<li key=${run.id}>
        <button class=${`row status-${run.status}${props.selected === run.id ? " selected" : ""}`}
          aria-pressed=${props.selected === run.id} onClick=${() => props.onOpen(run.id)}>
          <span class="time">${formatTime(run.startedAt)}</span>
          <span class="route">${run.routeId ?? "?"}</span>
          <span class="status">${run.status}</span>
          <span class="duration">${formatMs(run.durationMs)}</span>
          <span class="steps">${run.modelCalls} turns · ${run.toolCalls} tool calls</span>
          ${run.costUsd === undefined ? null : html`<span class="cost">${formatUsd(run.costUsd)}</span>`}
        </button>
      </li>`,
    )}
  </ul>`;
}

function callTitle(call: AgentRun["calls"][number]): string {
  if (call.kind === "model") {
    const tokens =
      call.inputTokens === undefined
        ? ""
        : ` · ${call.inputTokens} in${call.cachedInputTokens ? ` (${call.cachedInputTokens} cached)` : ""} / ${call.outputTokens ?? 0} out tokens`;
    const cost = call.costUsd === undefined ? "" : ` · ${formatUsd(call.costUsd)}`;
    return `model turn ${call.iteration}: ${call.name}${tokens}${cost}${call.stopReason ? ` · ${call.stopReason}` : ""}`;
  }
  return `tool ${call.name}${call.callId ? ` (${call.callId})` : ""}`;
}

/** One agent run as a waterfall: model turns and tool calls as bars on one time axis. */
export function WaterfallView(props: { run: AgentRun; onOpenExchange: (id: string) => void }) {
  const { run } = props;
  const total = Math.max(
    run.durationMs ?? 0,
    ...run.calls.map((call) => call.startMs + (call.durationMs ?? 0)),
    0.001,
  );
  return html`<section class="waterfall" aria-label=${`agent run ${run.id}`}>
    <h3>agent run <code>${run.id}</code></h3>
    <p>route <strong>${run.routeId ?? "?"}</strong> · ${run.model ?? ""} · <span class=${`status-${run.status}`}>${run.status}</span> · ${formatMs(run.durationMs)} · ${run.inputTokens} in / ${run.outputTokens} out tokens${run.costUsd === undefined ? "" : ` · ${formatUsd(run.costUsd)}`} · ${run.toolCalls} tool calls${run.error ? html` · <span class="error">${run.error}</span>` : null}</p>
    <ol class="calls" aria-label="model turns and tool calls">
      ${run.calls.map((call, index) => {
        const left = (call.startMs / total) * 100;
        const width = Math.max(((call.durationMs ?? 0) / total) * 100, 0.5);
        return html`<li key=${index} class=${`call ${call.kind} status-${call.status}`}>
          <div class="call-head">
            <span class="call-title">${callTitle(call)}</span>
            <span class="call-duration">${formatMs(call.durationMs)}</span>
          </div>
          <div class="bar-track" aria-hidden="true"><div class="bar" style=${{ left: `${left}%`, width: `${width}%` }}></div></div>
          ${call.arguments === undefined ? null : html`<details class="arguments"><summary>arguments</summary><pre>${call.arguments}</pre></details>`}
          ${call.output === undefined ? null : html`<details class="result"><summary>result</summary><pre>${call.output}</pre></details>`}
          ${call.error === undefined ? null : html`<p class="error">${call.error}</p>`}
          ${call.exchangeId === undefined ? null : html`<button class="link open-exchange" onClick=${() => props.onOpenExchange(call.exchangeId!)}>open the tool route's exchange</button>`}
        </li>`;
      })}
    </ol>
    ${run.droppedCalls > 0 ? html`<p class="muted">${run.droppedCalls} more calls not kept</p>` : null}
  </section>`;
}
