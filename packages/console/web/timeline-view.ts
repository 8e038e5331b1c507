import { formatMs } from "./format.js";
import { html } from "./html.js";
import type { ExchangeRecord, MessageSnapshot } from "./types.js";

function Snapshot(props: { title: string; snapshot: MessageSnapshot | undefined }) {
  const { snapshot } = props;
  if (snapshot === undefined) return null;
  const headers = Object.entries(snapshot.headers);
  return html`<details class="snapshot">
    <summary>${props.title} <span class="muted">(${snapshot.bodyType}${snapshot.truncated ? ", cut" : ""})</span></summary>
    <pre class="body">${snapshot.body}</pre>
    ${headers.length === 0 ? null : html`<dl class="headers">${headers.map(([name, value]) => html`<dt>${name}</dt><dd>${value}</dd>`)}</dl>`}
  </details>`;
}

/** One exchange as a timeline: each step as a bar at its start and duration, with what it left. */
export function TimelineView(props: { record: ExchangeRecord }) {
  const { record } = props;
  const total = Math.max(
    record.durationMs ?? 0,
    ...record.steps.map((step) => step.startMs + (step.durationMs ?? 0)),
    0.001,
  );
  return html`<section class="timeline" aria-label=${`exchange ${record.id}`}>
    <h3>exchange <code>${record.id}</code></h3>
    <p>route <strong>${record.routeId}</strong> · <span class=${`status-${record.status}`}>${record.status}</span> · ${formatMs(record.durationMs)}${record.error ? html` · <span class="error">${record.error}</span>` : null}</p>
    <${Snapshot} title="received" snapshot=${record.input} />
    <ol class="steps" aria-label="steps">
      ${record.steps.map((step, index) => {
        const left = (step.startMs / total) * 100;
        const width = Math.max(((step.durationMs ?? 0) / total) * 100, 0.5);
        return html`<li key=${index} class=${`step status-${step.status}`}>
          <div class="step-head">
            <span class="step-route">${step.routeId}</span>
            <span class="step-label">${step.path}</span>
            <span class="step-duration">${formatMs(step.durationMs)}</span>
          </div>
          <div class="bar-track" aria-hidden="true"><div class="bar" style=${{ left: `${left}%`, width: `${width}%` }}></div></div>
          ${step.error ? html`<p class="error">${step.error}</p>` : null}
          <${Snapshot} title="after this step" snapshot=${step.after} />
        </li>`;
      })}
    </ol>
    ${record.droppedSteps > 0 ? html`<p class="muted">${record.droppedSteps} more steps not kept</p>` : null}
    <${Snapshot} title="result" snapshot=${record.output} />
  </section>`;
}
