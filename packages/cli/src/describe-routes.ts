import type { ContextDescription } from "@routekit/core";
import type { StepDescription } from "@routekit/core/internal";
import type { DescribeFormat } from "./parse-command.js";

/** `context.describe()` as the command prints it: indented text, JSON, or a Mermaid flowchart. */
export function formatDescription(description: ContextDescription, format: DescribeFormat): string {
  if (format === "json") return `${JSON.stringify(description, null, 2)}\n`;
  if (format === "mermaid") return mermaid(description);
  return text(description);
}

function text(description: ContextDescription): string {
  const lines: string[] = [];
  for (const route of description.routes) {
    const tool = route.aspects.llmTool as { name?: string } | undefined;
    const marks = [
      tool?.name === undefined ? undefined : `tool ${tool.name}`,
      route.autoStart ? undefined : "not started",
    ];
    const suffix = marks.filter((mark) => mark !== undefined).join(", ");
    lines.push(`route ${route.id}${suffix === "" ? "" : ` (${suffix})`}`);
    lines.push(`  from ${route.from}`);
    for (const step of route.steps) stepLines(step, "  ", lines);
  }
  if (description.edges.length > 0) {
    lines.push("", "edges");
    for (const edge of description.edges)
      lines.push(`  ${edge.from} -> ${edge.to}  via ${edge.uri} (${edge.step})`);
  }
  return `${lines.join("\n")}\n`;
}

function stepLines(step: StepDescription, indent: string, lines: string[]): void {
  lines.push(`${indent}${step.label}`);
  for (const block of step.blocks) {
    lines.push(`${indent}  ${block.name}`);
    for (const inner of block.steps) stepLines(inner, `${indent}    `, lines);
  }
}

/** Routes as nodes, the endpoints they consume from as their entries, edges labelled with the URI. */
function mermaid(description: ContextDescription): string {
  const lines = ["flowchart LR"];
  const ids = new Map<string, string>();
  const idOf = (routeId: string): string => {
    let id = ids.get(routeId);
    if (id === undefined) {
      id = `r${ids.size}`;
      ids.set(routeId, id);
    }
    return id;
  };
  for (const route of description.routes) {
    lines.push(`  ${idOf(route.id)}["${label(route.id)}<br/>${label(route.from)}"]`);
  }
  for (const edge of description.edges) {
    lines.push(`  ${idOf(edge.from)} -->|"${label(edge.uri)}"| ${idOf(edge.to)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** Text safe inside a quoted Mermaid label. */
function label(value: string): string {
  return value.replaceAll('"', "#quot;").replaceAll("<", "#lt;").replaceAll(">", "#gt;");
}
