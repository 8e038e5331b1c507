import { graphlib, layout } from "@dagrejs/dagre";
import type { ConsoleGraph, GraphRoute, StepDescription } from "./types.js";

/** One text line inside a route's box: a step (with its path for counters) or a block's name. */
export interface BoxLine {
  /** The text shown, cut to fit the box. */
  readonly text: string;
  /** The whole text (the line's tooltip). */
  readonly full: string;
  readonly depth: number;
  readonly kind: "step" | "block";
  readonly path: string | undefined;
}

export interface LaidRoute {
  readonly kind: "route";
  readonly id: string;
  readonly route: GraphRoute;
  readonly lines: readonly BoxLine[];
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface LaidEndpoint {
  readonly kind: "endpoint";
  readonly id: string;
  readonly uri: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface LaidEdge {
  readonly from: string;
  readonly to: string;
  readonly label: string;
  readonly kind: "message" | "tool";
  readonly points: ReadonlyArray<{ readonly x: number; readonly y: number }>;
}

export interface GraphLayout {
  readonly width: number;
  readonly height: number;
  readonly nodes: ReadonlyArray<LaidRoute | LaidEndpoint>;
  readonly edges: readonly LaidEdge[];
}

export const CHAR_WIDTH = 7.4;
export const LINE_HEIGHT = 16;
/** Header lines of a route box: its id, its from URI, and its tool name when it is one. */
export const HEADER_LINES = 2;
export const COUNTER_WIDTH = 64;
const PADDING = 10;
const MAX_CHARS = 46;

/** Text cut to what a box shows. */
export function cut(text: string): string {
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
}

function flatten(steps: readonly StepDescription[], depth: number, lines: BoxLine[]): void {
  for (const step of steps) {
    lines.push({ text: cut(step.label), full: step.label, depth, kind: "step", path: step.path });
    for (const block of step.blocks) {
      const named = block.name !== "steps";
      const predicate = block.options.predicate;
      const name = typeof predicate === "string" ? `${block.name}: ${predicate}` : block.name;
      if (named)
        lines.push({
          text: cut(name),
          full: name,
          depth: depth + 1,
          kind: "block",
          path: undefined,
        });
      flatten(block.steps, depth + (named ? 2 : 1), lines);
    }
  }
}

/** The lines of a route's box. */
export function routeLines(route: GraphRoute): BoxLine[] {
  const lines: BoxLine[] = [];
  flatten(route.steps, 0, lines);
  return lines;
}

function textWidth(text: string, depth = 0): number {
  return Math.min(text.length, MAX_CHARS) * CHAR_WIDTH + depth * 12;
}

/** Places routes and endpoints top to bottom along the edges between them (dagre). */
export function layoutGraph(graph: ConsoleGraph): GraphLayout {
  const layered = new graphlib.Graph({ multigraph: true });
  layered.setGraph({ rankdir: "TB", nodesep: 28, ranksep: 48, marginx: 12, marginy: 12 });
  layered.setDefaultEdgeLabel(() => ({}));
  const routes = new Map<string, { route: GraphRoute; lines: BoxLine[] }>();
  for (const route of graph.routes) {
    const lines = routeLines(route);
    const header = Math.max(
      textWidth(route.id) + 80,
      textWidth(route.from),
      textWidth(route.tool ? `tool ${route.tool.name}` : ""),
    );
    const body = Math.max(0, ...lines.map((line) => textWidth(line.text, line.depth) + COUNTER_WIDTH));
    const headerLines = HEADER_LINES + (route.tool === undefined ? 0 : 1);
    const id = `route:${route.id}`;
    routes.set(id, { route, lines });
    layered.setNode(id, {
      width: Math.max(header, body) + PADDING * 2,
      height: (headerLines + lines.length) * LINE_HEIGHT + PADDING * 2,
    });
  }
  for (const endpoint of graph.endpoints) {
    layered.setNode(endpoint.id, {
      width: textWidth(endpoint.uri) + PADDING * 2,
      height: LINE_HEIGHT + PADDING * 2,
    });
  }
  graph.edges.forEach((edge, index) => {
    if (layered.hasNode(edge.from) && layered.hasNode(edge.to))
      layered.setEdge(edge.from, edge.to, {}, `e${index}`);
  });
  layout(layered);
  const nodes: Array<LaidRoute | LaidEndpoint> = [];
  for (const id of layered.nodes()) {
    const node = layered.node(id);
    const box = {
      x: node.x - node.width / 2,
      y: node.y - node.height / 2,
      width: node.width,
      height: node.height,
    };
    const route = routes.get(id);
    if (route !== undefined)
      nodes.push({ kind: "route", id, route: route.route, lines: route.lines, ...box });
    else nodes.push({ kind: "endpoint", id, uri: id.slice("endpoint:".length), ...box });
  }
  const edges: LaidEdge[] = [];
  graph.edges.forEach((edge, index) => {
    const laid = layered.edge({ v: edge.from, w: edge.to, name: `e${index}` });
    if (laid?.points !== undefined) edges.push({ ...edge, points: laid.points });
  });
  const size = layered.graph();
  return { width: size.width ?? 0, height: size.height ?? 0, nodes, edges };
}
