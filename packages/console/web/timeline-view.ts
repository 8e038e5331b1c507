import { formatMs } from "./format.js";
import { html } from "./html.js";
import type { ExchangeRecord, MessageSnapshot, StepRun } from "./types.js";

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

/** The end (ms from the exchange's start) of the latest step, nested parts' steps included. */
function latestEnd(steps: readonly StepRun[]): number {
  let end = 0;
  for (const step of steps) {
    end = Math.max(end, step.startMs + (step.durationMs ?? 0));
    for (const part of step.parts ?? []) end = Math.max(end, latestEnd(part.steps));
  }
  return end;
}

/** Parts shown open at first: a larger fan-out starts folded. */
const OPEN_PARTS = 5;

/** The split parts or multicast copies a step made, each with its steps, under that step. */
function Parts(props: { step: StepRun; total: number }) {
  const { step, total } = props;
  const parts = step.parts ?? [];
  if (parts.length === 0 && step.droppedParts === 0) return null;
  return html`<details class="parts" open=${parts.length <= OPEN_PARTS}>
    <summary>${parts.length + step.droppedParts} parts</summary>
    <ol class="parts" aria-label=${`parts of ${step.path}`}>
      ${parts.map(
        (part, index) => html`<li key=${index} class=${`part status-${part.status}`}>
          <div class="part-head">
            <span class="part-label">part ${index + 1}</span>
            <code class="muted">${part.exchangeId}</code>
            <span class=${`status-${part.status}`}>${part.status}</span>
            <span class="step-duration">${formatMs(part.durationMs)}</span>
          </div>
          ${part.error ? html`<p class="error">${part.error}</p>` : null}
          <${Steps} steps=${part.steps} total=${total} label=${`steps of part ${index + 1}`} />
          ${part.droppedSteps > 0 ? html`<p class="muted">${part.droppedSteps} more steps not kept</p>` : null}
        </li>`,
      )}
    </ol>
    ${step.droppedParts > 0 ? html`<p class="muted">${step.droppedParts} more parts not kept</p>` : null}
  </details>`;
}

/** Steps as bars on the exchange's time axis (`total` ms wide), with what each left. */
function Steps(props: { steps: readonly StepRun[]; total: number; label: string }) {
  const { total } = props;
  return html`<ol class="steps" aria-label=${props.label}>
    ${props.steps.map((step, index) => {
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
        <${Parts} step=${step} total=${total} />
      </li>`;
    })}
  </ol>`;
}

/**
 * One exchange as a timeline: each step as a bar at its start and duration, with what it left;
 * the parts a split or multicast made nested under its step, on the same time axis.
 */
export function TimelineView(props: { record: ExchangeRecord }) {
  const { record } = props;
  const total = Math.max(record.durationMs ?? 0, latestEnd(record.steps), 0.001);
  return html`<section class="timeline" aria-label=${`exchange ${record.id}`}>
    <h3>exchange <code>${record.id}</code></h3>
    <p>route <strong>${record.routeId}</strong> · <span class=${`status-${record.status}`}>${record.status}</span> · ${formatMs(record.durationMs)}${record.error ? html` · <span class="error">${record.error}</span>` : null}</p>
    <${Snapshot} title="received" snapshot=${record.input} />
    <${Steps} steps=${record.steps} total=${total} label="steps" />
    ${record.droppedSteps > 0 ? html`<p class="muted">${record.droppedSteps} more steps not kept</p>` : null}
    <${Snapshot} title="result" snapshot=${record.output} />
  </section>`;
}
