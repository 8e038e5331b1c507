import { formatMs } from "./format.js";
import { html } from "./html.js";
import type { GraphRoute, LiveRouteCounters } from "./types.js";

/** Every route's live counters with its start/stop button. */
export function RoutesTable(props: {
  routes: readonly GraphRoute[];
  counters: readonly LiveRouteCounters[];
  busy: string | undefined;
  onAction: (routeId: string, action: "start" | "stop") => void;
  onSelect: (routeId: string) => void;
}) {
  const countersOf = new Map(props.counters.map((counters) => [counters.routeId, counters]));
  return html`<table class="routes" aria-label="routes and their counters">
    <thead>
      <tr><th scope="col">route</th><th scope="col">state</th><th scope="col">exchanges</th><th scope="col">failures</th><th scope="col">in flight</th><th scope="col">p50</th><th scope="col">p99</th><th scope="col"><span class="visually-hidden">action</span></th></tr>
    </thead>
    <tbody>
      ${props.routes.map((route) => {
        const counters = countersOf.get(route.id);
        const state = counters?.state ?? route.state;
        const action = state === "started" ? "stop" : "start";
        return html`<tr key=${route.id} data-route=${route.id}>
          <th scope="row"><button class="link" onClick=${() => props.onSelect(route.id)}>${route.id}</button>${route.tool ? html` <span class="badge">tool ${route.tool.name}</span>` : null}</th>
          <td class=${`state state-${state}`}>${state}</td>
          <td class="exchanges">${counters?.exchanges ?? 0}</td>
          <td class=${`failures${(counters?.failures ?? 0) > 0 ? " failed" : ""}`}>${counters?.failures ?? 0}</td>
          <td class="inflight">${counters?.inflight ?? 0}</td>
          <td>${formatMs(counters?.p50)}</td>
          <td>${formatMs(counters?.p99)}</td>
          <td><button class=${`action ${action}`} disabled=${props.busy === route.id} aria-label=${`${action} route ${route.id}`} onClick=${() => props.onAction(route.id, action)}>${action}</button></td>
        </tr>`;
      })}
    </tbody>
  </table>`;
}

/** The selected route: where it consumes from, its tool and the tool's input schema. */
export function RouteDetails(props: { route: GraphRoute; counters: LiveRouteCounters | undefined }) {
  const { route } = props;
  return html`<section class="route-details" aria-label=${`route ${route.id}`}>
    <h3>${route.id}</h3>
    <p>from <code>${route.from}</code>${route.description ? html` — ${route.description}` : null}</p>
    ${
      route.tool === undefined
        ? null
        : html`<div class="tool">
            <p><span class="badge">tool ${route.tool.name}</span> ${route.tool.description}</p>
            <details open>
              <summary>input schema</summary>
              <pre>${JSON.stringify(route.tool.inputSchema, null, 2)}</pre>
            </details>
          </div>`
    }
    ${
      props.counters === undefined || props.counters.steps.length === 0
        ? null
        : html`<table class="routes step-counters" aria-label=${`steps of route ${route.id}`}>
            <thead>
              <tr><th scope="col">step</th><th scope="col">runs</th><th scope="col">failures</th><th scope="col">in flight</th><th scope="col">p50</th><th scope="col">p99</th></tr>
            </thead>
            <tbody>
              ${props.counters.steps.map(
                (step) => html`<tr key=${step.path}>
                  <th scope="row"><code>${step.path}</code></th>
                  <td>${step.calls}</td>
                  <td class=${step.failures > 0 ? "failed" : ""}>${step.failures}</td>
                  <td>${step.inflight}</td>
                  <td>${formatMs(step.p50)}</td>
                  <td>${formatMs(step.p99)}</td>
                </tr>`,
              )}
            </tbody>
          </table>`
    }
  </section>`;
}
