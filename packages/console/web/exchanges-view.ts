import { formatMs, formatTime } from "./format.js";
import { html } from "./html.js";
import type { ExchangeSummary } from "./types.js";

/** The recent exchanges, newest first, with a search box. */
export function ExchangesList(props: {
  exchanges: readonly ExchangeSummary[];
  query: string;
  selected: string | undefined;
  onQuery: (query: string) => void;
  onOpen: (id: string) => void;
}) {
  return html`<div class="exchanges">
    <label class="search">search exchanges
      <input type="search" maxlength="200" value=${props.query} placeholder="id, route, status, body text…"
        onInput=${(event: Event) => props.onQuery((event.target as HTMLInputElement).value)} />
    </label>
    <ul class="list" aria-label="recent exchanges">
      ${props.exchanges.length === 0 ? html`<li class="empty">no exchanges yet</li>` : null}
      ${props.exchanges.map(
        (exchange) => html`<li key=${exchange.id}>
          <button class=${`row status-${exchange.status}${props.selected === exchange.id ? " selected" : ""}`}
            aria-pressed=${props.selected === exchange.id} onClick=${() => props.onOpen(exchange.id)}>
            <span class="time">${formatTime(exchange.startedAt)}</span>
            <span class="route">${exchange.routeId}</span>
            <span class="status">${exchange.status}</span>
            <span class="duration">${formatMs(exchange.durationMs)}</span>
            <span class="steps">${exchange.steps} steps</span>
          </button>
        </li>`,
      )}
    </ul>
  </div>`;
}
