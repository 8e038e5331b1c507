import { SpanKind } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";

const KINDS: Record<number, string> = {
  [SpanKind.INTERNAL]: "internal",
  [SpanKind.SERVER]: "server",
  [SpanKind.CLIENT]: "client",
  [SpanKind.PRODUCER]: "producer",
  [SpanKind.CONSUMER]: "consumer",
};

/** The attributes worth a glance on one line: GenAI usage and tool names, the HTTP status, errors. */
const SHOWN = [
  "gen_ai.provider.name",
  "gen_ai.request.model",
  "gen_ai.tool.name",
  "gen_ai.usage.input_tokens",
  "gen_ai.usage.output_tokens",
  "gen_ai.response.finish_reasons",
  "gen_ai.response.model",
  "http.response.status_code",
  "error.type",
];

function milliseconds(span: ReadableSpan): string {
  const [seconds, nanoseconds] = span.duration;
  return `${(seconds * 1000 + nanoseconds / 1e6).toFixed(1)} ms`;
}

function details(span: ReadableSpan): string {
  const shown = SHOWN.filter((name) => span.attributes[name] !== undefined).map(
    (name) => `${name.replace(/^gen_ai\./, "")}=${JSON.stringify(span.attributes[name])}`,
  );
  return shown.length === 0 ? "" : `  ${shown.join(" ")}`;
}

/** Finished spans as an indented tree, children in the order they started. */
export function formatSpanTree(spans: readonly ReadableSpan[]): string {
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  const children = new Map<string, ReadableSpan[]>();
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent !== undefined && ids.has(parent) ? parent : "";
    children.set(key, [...(children.get(key) ?? []), span]);
  }
  const lines: string[] = [];
  const walk = (parent: string, depth: number): void => {
    const started = (span: ReadableSpan) => span.startTime[0] * 1e9 + span.startTime[1];
    for (const span of (children.get(parent) ?? []).sort((a, b) => started(a) - started(b))) {
      const label = `${"  ".repeat(depth)}${span.name} (${KINDS[span.kind] ?? span.kind})`;
      lines.push(`${label.padEnd(54)} ${milliseconds(span).padStart(9)}${details(span)}`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk("", 0);
  return lines.join("\n");
}
