import { createContext, type RouteBuilder, type RouteContext } from "@routekit/core";
import {
  JsonPathTool,
  MathEvalTool,
  RegexExtractTool,
  shutdownRegexWorkers,
  XPathTool,
} from "@routekit/llm-tools";
import fontoxpath from "fontoxpath";
import { JSONPath } from "jsonpath-plus";
import { all, create } from "mathjs";
import { RE2JS } from "re2js";
import { parseXmlDocument } from "slimdom";
import { type BenchOptions, type BenchRow, compare, printRow } from "./harness.js";

const TARGET = "≤ 1.2× the raw call";

/** One tool measured through its wrapper route beside the raw library call doing the same work. */
interface ToolCase {
  benchmark: string;
  tool: RouteBuilder;
  uri: string;
  input: unknown;
  expected: string | null;
  baseline: string;
  raw: () => unknown;
  target?: string;
  note?: string;
}

function cases(): ToolCase[] {
  const store = {
    store: {
      book: Array.from({ length: 20 }, (_, index) => ({
        title: `Book ${index}`,
        price: index * 1.5,
        tags: ["a", "b"],
      })),
      bicycle: { color: "red", price: 19.95 },
    },
  };
  const xml = `<library>${Array.from({ length: 20 }, (_, index) => `<book id="${index}"><title>Book ${index}</title></book>`).join("")}</library>`;
  const text = "Orders: A-17 shipped on 2024-05-01, B-4 pending, C-230 cancelled. Contact ops@example.com.";
  if (all === undefined) throw new Error("mathjs exports no 'all' factories");
  const plainMath = create(all);
  const expression = "2 * (3 + 4) ^ 2 / sqrt(16) + sin(pi / 6)";
  const compiled = plainMath.compile(expression);
  const regex = RE2JS.compile("[A-Z]-(\\d+)");
  return [
    {
      benchmark: "json_path filter",
      tool: new JsonPathTool(),
      uri: "direct:llm.json_path",
      input: { json: store, path: "$.store.book[?(@.price > 20)].title" },
      expected: '["Book 14","Book 15","Book 16","Book 17","Book 18","Book 19"]',
      baseline: 'jsonpath-plus JSONPath({ eval: "safe" })',
      raw: () => JSONPath({ path: "$.store.book[?(@.price > 20)].title", json: store, eval: "safe" }),
    },
    {
      benchmark: "xpath string(//book[@id]/title)",
      tool: new XPathTool(),
      uri: "direct:llm.xpath",
      input: { xml, xpath: "string(//book[@id='7']/title)" },
      expected: "Book 7",
      baseline: "slimdom parse + fontoxpath evaluateXPathToString",
      raw: () => fontoxpath.evaluateXPathToString("string(//book[@id='7']/title)", parseXmlDocument(xml)),
      note: "both sides parse the XML text on every call, as the tool receives text",
    },
    {
      benchmark: "regex_extract all groups",
      tool: new RegexExtractTool(),
      uri: "direct:llm.regex_extract",
      input: { text, pattern: "[A-Z]-(\\d+)", group: 1, all: true },
      expected: '["17","4","230"]',
      baseline: "re2js matcher, compiled once",
      raw: () => {
        const values: string[] = [];
        const matcher = regex.matcher(text);
        while (matcher.find()) values.push(matcher.group(1) ?? "");
        return values;
      },
    },
    {
      benchmark: "math_eval",
      tool: new MathEvalTool(),
      uri: "direct:llm.math_eval",
      input: { expression },
      expected: "25",
      baseline: "plain mathjs evaluate",
      raw: () => plainMath.evaluate(expression),
    },
    {
      benchmark: "math_eval",
      tool: new MathEvalTool({ endpointUri: "direct:math-cached" }),
      uri: "direct:math-cached",
      input: { expression },
      expected: "25",
      baseline: "plain mathjs, compiled once",
      raw: () => compiled.evaluate(),
      target: "context: the limit (no parse, no guards, no route)",
    },
  ];
}

/**
 * Per-call time of each local tool step through a route (`context.request` on the wrapper's
 * endpoint: exchange, input parsing, guards, output text) beside the raw library call in the
 * same run.
 */
export async function runToolsBench(options: BenchOptions): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const iterations = options.quick ? 2_000 : 20_000;
  const runs = options.quick ? 3 : 9;
  for (const toolCase of cases()) {
    const context: RouteContext = createContext();
    await context.addRoutes(toolCase.tool);
    await context.start();
    const reply = await context.request(toolCase.uri, toolCase.input);
    if (reply !== toolCase.expected) {
      throw new Error(
        `${toolCase.benchmark}: expected ${String(toolCase.expected)}, the tool answered ${String(reply)}`,
      );
    }
    const routed = async (count: number) => {
      for (let index = 0; index < count; index++) await context.request(toolCase.uri, toolCase.input);
    };
    let sink: unknown;
    const raw = (count: number) => {
      for (let index = 0; index < count; index++) sink = toolCase.raw();
    };
    const scale = toolCase.benchmark.startsWith("xpath") ? 10 : 1;
    const result = await compare(routed, raw, Math.max(100, Math.floor(iterations / scale)), runs);
    await context.stop();
    if (sink === undefined) throw new Error(`${toolCase.benchmark}: the raw call never ran`);
    const ratio = result.subject.medianNs / result.baseline.medianNs;
    const target = toolCase.target ?? TARGET;
    rows.push({
      benchmark: toolCase.benchmark,
      subject: "tool route (wrapper)",
      baseline: toolCase.baseline,
      subjectStats: result.subject,
      baselineStats: result.baseline,
      ratio,
      target,
      met: toolCase.target === undefined ? ratio <= 1.2 : true,
      ...(toolCase.note === undefined ? {} : { note: toolCase.note }),
    });
  }
  await shutdownRegexWorkers();
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runToolsBench({ quick: process.argv.includes("--quick") });
  for (const row of rows) printRow(row);
}
