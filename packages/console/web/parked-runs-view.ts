import { useEffect, useState } from "preact/hooks";
import { getJson, postJson } from "./api.js";
import { formatTime } from "./format.js";
import { html } from "./html.js";
import type { ParkedRuns } from "./types.js";

/**
 * Durable runs parked for a person's answer (every instance sharing the store), each waiting call
 * with approve and deny buttons; refreshed whenever the live snapshot changes.
 */
export function ParkedRunsList(props: { version: number; onProblem: (message: string) => void }) {
  const [parked, setParked] = useState<ParkedRuns | undefined>(undefined);
  const [answering, setAnswering] = useState<string | undefined>(undefined);
  const load = () => getJson<ParkedRuns>("/api/durable-runs").then(setParked, () => {});
  useEffect(() => {
    load();
  }, [props.version]);
  if (parked === undefined || !parked.available) return null;
  const answer = (runId: string, callId: string, action: "approve" | "deny") => {
    setAnswering(`${runId}/${callId}`);
    postJson(`/api/durable-runs/${encodeURIComponent(runId)}/calls/${encodeURIComponent(callId)}/${action}`)
      .catch((error: Error) => props.onProblem(error.message))
      .finally(() => {
        setAnswering(undefined);
        load();
      });
  };
  return html`<section class="parked" aria-label="parked runs">
    <h3>Waiting for approval</h3>
    <ul class="list">
      ${parked.runs.length === 0 ? html`<li class="empty">no run waits for an answer</li>` : null}
      ${parked.runs.flatMap((run) =>
        run.calls.map(
          (call) => html`<li key=${`${run.runId}/${call.callId}`} class="parked-call">
            <span class="time">${formatTime(call.requestedAt)}</span>
            <span class="route">${run.routeId ?? "?"}</span>
            <code class="run-id">${run.runId}</code>
            <span class="tool">${call.toolName}</span>
            <details class="arguments"><summary>arguments</summary><pre>${call.arguments}</pre></details>
            <button class="approve" disabled=${answering !== undefined}
              onClick=${() => answer(run.runId, call.callId, "approve")}>approve</button>
            <button class="deny" disabled=${answering !== undefined}
              onClick=${() => answer(run.runId, call.callId, "deny")}>deny</button>
          </li>`,
        ),
      )}
    </ul>
  </section>`;
}
