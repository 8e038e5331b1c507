import { useMemo } from "preact/hooks";
import {
  cut,
  HEADER_LINES,
  type LaidEdge,
  type LaidRoute,
  LINE_HEIGHT,
  layoutGraph,
} from "./graph-layout.js";
import { html } from "./html.js";
import type { ConsoleGraph, LiveRouteCounters, LiveStepCounters } from "./types.js";

const PADDING = 10;

function edgePath(edge: LaidEdge): string {
  return edge.points
    .map((point, index) => `${index === 0 ? "M" : "L"}${point.x.toFixed(1)},${point.y.toFixed(1)}`)
    .join(" ");
}

function stepCount(counters: LiveStepCounters | undefined): string {
  if (counters === undefined) return "";
  return counters.failures > 0 ? `${counters.calls} ✕${counters.failures}` : String(counters.calls);
}

function RouteBox(props: {
  node: LaidRoute;
  counters: LiveRouteCounters | undefined;
  selected: boolean;
  onSelect: (routeId: string) => void;
}) {
  const { node, counters } = props;
  const route = node.route;
  const byPath = new Map((counters?.steps ?? []).map((step) => [step.path, step]));
  const state = counters?.state ?? route.state;
  const header = HEADER_LINES + (route.tool === undefined ? 0 : 1);
  const summary =
    counters === undefined
      ? ""
      : `${counters.exchanges} ex · ${counters.failures} failed · ${counters.inflight} in flight`;
  return html`<g
    class=${`route-node state-${state}${props.selected ? " selected" : ""}`}
    transform=${`translate(${node.x},${node.y})`}
    role="button"
    tabindex="0"
    aria-label=${`route ${route.id}, ${state}, from ${route.from}${route.tool ? `, tool ${route.tool.name}` : ""}. ${summary}`}
    onClick=${() => props.onSelect(route.id)}
    onKeyDown=${(event: KeyboardEvent) => (event.key === "Enter" || event.key === " ") && props.onSelect(route.id)}
  >
    <rect class="box" width=${node.width} height=${node.height} rx="6" />
    <text class="route-id" x=${PADDING} y=${PADDING + 12}>${route.id}</text>
    <text class="route-state" x=${node.width - PADDING} y=${PADDING + 12} text-anchor="end">${state}</text>
    <text class="route-from" x=${PADDING} y=${PADDING + 12 + LINE_HEIGHT}>${cut(route.from)}<title>${route.from}</title></text>
    ${route.tool === undefined ? null : html`<text class="route-tool" x=${PADDING} y=${PADDING + 12 + LINE_HEIGHT * 2}>tool ${route.tool.name}</text>`}
    ${node.lines.map((line, index) => {
      const y = PADDING + 12 + LINE_HEIGHT * (header + index);
      const counter = line.path === undefined ? undefined : byPath.get(line.path);
      return html`<g key=${index} class=${`line ${line.kind}`}>
        <title>${line.full}</title>
        <text x=${PADDING + line.depth * 12} y=${y}>${line.text}</text>
        ${counter === undefined ? null : html`<text class=${`step-count${counter.failures > 0 ? " failed" : ""}`} x=${node.width - PADDING} y=${y} text-anchor="end">${stepCount(counter)}</text>`}
      </g>`;
    })}
  </g>`;
}

/** The route graph as SVG: route boxes with their steps, endpoints, and the edges between them. */
export function GraphView(props: {
  graph: ConsoleGraph;
  counters: readonly LiveRouteCounters[];
  selected: string | undefined;
  onSelect: (routeId: string) => void;
}) {
  const laid = useMemo(() => layoutGraph(props.graph), [props.graph]);
  const countersOf = new Map(props.counters.map((counters) => [counters.routeId, counters]));
  const routeCount = props.graph.routes.length;
  return html`<svg
    class="graph"
    role="group"
    aria-label=${`route graph: ${routeCount} routes, ${props.graph.endpoints.length} endpoints, ${props.graph.edges.length} connections`}
    viewBox=${`0 0 ${Math.max(laid.width, 10)} ${Math.max(laid.height, 10)}`}
    width=${laid.width}
    height=${laid.height}
  >
    <defs>
      <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
        <path d="M 0 0 L 10 5 L 0 10 z" class="arrow-head" />
      </marker>
    </defs>
    ${laid.edges.map(
      (edge, index) => html`<g key=${`edge${index}`} class=${`edge ${edge.kind}`}>
        <title>${edge.label}</title>
        <path d=${edgePath(edge)} marker-end="url(#arrow)" />
      </g>`,
    )}
    ${laid.nodes.map((node) =>
      node.kind === "route"
        ? html`<${RouteBox} key=${node.id} node=${node} counters=${countersOf.get(node.route.id)} selected=${props.selected === node.route.id} onSelect=${props.onSelect} />`
        : html`<g key=${node.id} class="endpoint-node" transform=${`translate(${node.x},${node.y})`} role="img" aria-label=${`endpoint ${node.uri}`}>
            <rect width=${node.width} height=${node.height} rx=${node.height / 2} />
            <text x=${node.width / 2} y=${node.height / 2 + 4} text-anchor="middle">${node.uri}</text>
          </g>`,
    )}
  </svg>`;
}
