import { createContext, type RouteContext, sharedBudget } from "@routekit/core";
import { compileExpression } from "@routekit/core/internal";
import { JsonPathTool, MathEvalTool, RegexExtractTool, XPathTool } from "@routekit/llm-tools";
import fontoxpath from "fontoxpath";
import { JSONPath } from "jsonpath-plus";
import { all, create } from "mathjs";
import { RE2JS } from "re2js";
import { parseXmlDocument } from "slimdom";
import { type BenchOptions, type BenchRow, compare, printRow } from "./harness.js";

/** Route-author expressions (inline): at most 1.2 times the raw library call. */
const TRUSTED_TARGET = "≤ 1.2× the raw call";
/** Untrusted input (through the budget's workers): at most 0.3 ms above the raw call. */
const UNTRUSTED_TARGET = "≤ raw + 0.3 ms";
const UNTRUSTED_MARGIN_NS = 300_000;

/** One measured pair: a route (or expression) beside the raw library call doing the same work. */
interface ToolCase {
  readonly benchmark: string;
  readonly subject: string;
  /** Adds the routes; `call` then sends one message (or evaluates once) and returns the reply. */
  readonly routes?: (context: RouteContext) => Promise<void>;
  readonly call: (context: RouteContext, index: number) => unknown;
  readonly expected: (index: number) => unknown;
  readonly baseline: string;
  readonly raw: (index: number) => unknown;
  readonly untrusted: boolean;
  /** Fewer iterations for slow cases. */
  readonly scale?: number;
  readonly note?: string;
}

function documents() {
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
  return { store, xml, text };
}

function cases(): ToolCase[] {
  const { store, xml, text } = documents();
  if (all === undefined) throw new Error("mathjs exports no 'all' factories");
  const plainMath = create(all);
  const expression = "2 * (3 + 4) ^ 2 / sqrt(16) + sin(pi / 6)";
  const compiledOnce = plainMath.compile(expression);
  /** A different expression each call (a counter in it), so neither side can reuse a parse. */
  const varied = (index: number) => `${index} * (3 + 4) ^ 2 / sqrt(16) + 1`;
  const variedValue = (index: number) => String((index * 49) / 4 + 1);
  const re2 = RE2JS.compile("[A-Z]-(\\d+)");
  const native = /([A-Z])-(\d+)\s\w+\s\w+\s\1?/gu;
  const filterPath = "$.store.book[?(@.price > 20)].title";
  const filtered = '["Book 14","Book 15","Book 16","Book 17","Book 18","Book 19"]';
  const jpathExpression = compileExpression(`\${jpath('${filterPath}')}`);
  const xpathExpression = compileExpression("${xpath(\"string(//book[@id='7']/title)\")}");
  const parsedXml = parseXmlDocument(xml);
  const request = (uri: string) => (context: RouteContext, _index: number, body?: unknown) =>
    context.request(uri, body);
  return [
    // Route-author expressions: inline, on the route's thread.
    {
      benchmark: "jpath() in a route expression",
      subject: "compiled ${jpath(...)} over the body",
      call: () => JSON.stringify(jpathExpression({ body: store, headers: {}, properties: {} } as never)),
      expected: () => filtered,
      baseline: 'jsonpath-plus JSONPath({ eval: "safe" })',
      raw: () => JSON.stringify(JSONPath({ path: filterPath, json: store, eval: "safe" })),
      untrusted: false,
    },
    {
      benchmark: "xpath() in a route expression",
      subject: "compiled ${xpath(...)} over a parsed document",
      call: () => xpathExpression({ body: parsedXml, headers: {}, properties: {} } as never),
      expected: () => "Book 7",
      baseline: "fontoxpath evaluateXPathToString",
      raw: () => fontoxpath.evaluateXPathToString("string(//book[@id='7']/title)", parsedXml),
      untrusted: false,
    },
    {
      benchmark: "json_path, fixed path (route author)",
      subject: ".jsonPath({ path }) step",
      routes: async (context) => {
        await context.addRoutes((routes) => routes.from("direct:json-fixed").jsonPath({ path: filterPath }));
      },
      call: (context) => request("direct:json-fixed")(context, 0, store),
      expected: () => filtered,
      baseline: "JSONPath + JSON.stringify of the result",
      raw: () => JSON.stringify(JSONPath({ path: filterPath, json: store, eval: "safe" })),
      untrusted: false,
      note: "the step also measures an object document against maxDocumentBytes (JSON.stringify)",
    },
    {
      benchmark: "regex_extract, fixed pattern (route author)",
      subject: ".regexExtract({ pattern, group, all }) step",
      routes: async (context) => {
        await context.addRoutes((routes) =>
          routes.from("direct:regex-fixed").regexExtract({ pattern: "[A-Z]-(\\d+)", group: 1, all: true }),
        );
      },
      call: (context) => request("direct:regex-fixed")(context, 0, text),
      expected: () => '["17","4","230"]',
      baseline: "re2js matcher, compiled once, + JSON.stringify",
      raw: () => {
        const values: string[] = [];
        const matcher = re2.matcher(text);
        while (matcher.find()) values.push(matcher.group(1) ?? "");
        return JSON.stringify(values);
      },
      untrusted: false,
    },
    // Untrusted input: through the budget's worker threads.
    {
      benchmark: "json_path, path from the model",
      subject: "JsonPathTool route (budget worker)",
      routes: async (context) => {
        await context.addRoutes(new JsonPathTool());
      },
      call: (context) => request("direct:llm.json_path")(context, 0, { json: store, path: filterPath }),
      expected: () => filtered,
      baseline: "JSONPath + JSON.stringify, on this thread",
      raw: () => JSON.stringify(JSONPath({ path: filterPath, json: store, eval: "safe" })),
      untrusted: true,
      scale: 10,
    },
    {
      benchmark: "xpath, expression from the model",
      subject: "XPathTool route (budget worker)",
      routes: async (context) => {
        await context.addRoutes(new XPathTool());
      },
      call: (context) =>
        request("direct:llm.xpath")(context, 0, { xml, xpath: "string(//book[@id='7']/title)" }),
      expected: () => "Book 7",
      baseline: "slimdom parse + fontoxpath, on this thread",
      raw: () => fontoxpath.evaluateXPathToString("string(//book[@id='7']/title)", parseXmlDocument(xml)),
      untrusted: true,
      scale: 10,
      note: "both sides parse the XML text on every call, as the tool receives text",
    },
    {
      benchmark: "math_eval, same expression",
      subject: "MathEvalTool route (budget worker, compiled-expression cache hit)",
      routes: async (context) => {
        await context.addRoutes(new MathEvalTool());
      },
      call: (context) => request("direct:llm.math_eval")(context, 0, { expression }),
      expected: () => "25",
      baseline: "plain mathjs, compiled once (a cache hit too)",
      raw: () => compiledOnce.evaluate(),
      untrusted: true,
      scale: 10,
    },
    {
      benchmark: "math_eval, a new expression each call",
      subject: "MathEvalTool route (budget worker, parse + guards + compile)",
      routes: async (context) => {
        await context.addRoutes(new MathEvalTool({ endpointUri: "direct:math-varied" }));
      },
      call: (context, index) => request("direct:math-varied")(context, index, { expression: varied(index) }),
      expected: (index) => variedValue(index),
      baseline: "plain mathjs evaluate (parse each call)",
      raw: (index) => plainMath.evaluate(varied(index)),
      untrusted: true,
      scale: 10,
    },
    {
      benchmark: "regex_extract, pattern only JavaScript runs",
      subject: "RegexExtractTool route, backreference (budget worker)",
      routes: async (context) => {
        await context.addRoutes(new RegexExtractTool());
      },
      call: (context) =>
        request("direct:llm.regex_extract")(context, 0, {
          text,
          pattern: "([A-Z])-(\\d+)\\s\\w+\\s\\w+\\s\\1?",
          group: 2,
          all: true,
        }),
      expected: () => '["17"]',
      baseline: "native RegExp matchAll, on this thread",
      raw: () => JSON.stringify([...text.matchAll(native)].map((match) => match[2])),
      untrusted: true,
      scale: 10,
    },
  ];
}

/**
 * Route-author expressions (inline) and untrusted tool input (through the budget's workers),
 * each beside the raw library call doing the same work in the same run, measured alternately.
 */
export async function runToolsBench(options: BenchOptions, only?: string): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const iterations = options.quick ? 1_000 : 10_000;
  // 21 alternating rounds (was 9): a case's runs take about 40 ms each, so a slow patch of the
  // machine a few runs long moved the median of nine (regex_extract 1.22 with ±40% in one full run,
  // 0.94–1.04 in nine other runs of nine rounds).
  const runs = options.quick ? 3 : 21;
  for (const toolCase of cases()) {
    if (only !== undefined && !toolCase.benchmark.includes(only)) continue;
    const context: RouteContext = createContext();
    await toolCase.routes?.(context);
    await context.start();
    const check = async (index: number) => {
      const reply = await toolCase.call(context, index);
      if (reply !== toolCase.expected(index)) {
        throw new Error(
          `${toolCase.benchmark}: expected ${String(toolCase.expected(index))}, got ${String(reply)}`,
        );
      }
    };
    await check(1);
    let counter = 0;
    const subject = async (count: number) => {
      for (let index = 0; index < count; index++) await toolCase.call(context, counter++);
    };
    let sink: unknown;
    const raw = (count: number) => {
      for (let index = 0; index < count; index++) sink = toolCase.raw(counter++);
    };
    const result = await compare(
      subject,
      raw,
      Math.max(100, Math.floor(iterations / (toolCase.scale ?? 1))),
      runs,
    );
    await check(counter + 1);
    await context.stop();
    if (sink === undefined) throw new Error(`${toolCase.benchmark}: the raw call never ran`);
    const ratio = result.subject.medianNs / result.baseline.medianNs;
    const overheadNs = result.subject.medianNs - result.baseline.medianNs;
    const overhead = `overhead ${(overheadNs / 1e6).toFixed(3)} ms at the median`;
    rows.push({
      benchmark: toolCase.benchmark,
      subject: toolCase.subject,
      baseline: toolCase.baseline,
      subjectStats: result.subject,
      baselineStats: result.baseline,
      ratio,
      target: toolCase.untrusted ? UNTRUSTED_TARGET : TRUSTED_TARGET,
      met: toolCase.untrusted ? overheadNs <= UNTRUSTED_MARGIN_NS : ratio <= 1.2,
      ...noteOf([toolCase.untrusted ? overhead : undefined, toolCase.note]),
    });
  }
  await sharedBudget().close();
  return rows;
}

function noteOf(parts: ReadonlyArray<string | undefined>): { note?: string } {
  const present = parts.filter((part): part is string => part !== undefined);
  return present.length === 0 ? {} : { note: present.join("; ") };
}

// Usage: tsx bench/tools.ts [--quick] [--only <text in the benchmark name>]
if (import.meta.url === `file://${process.argv[1]}`) {
  const onlyAt = process.argv.indexOf("--only");
  const only = onlyAt === -1 ? undefined : process.argv[onlyAt + 1];
  const rows = await runToolsBench({ quick: process.argv.includes("--quick") }, only);
  for (const row of rows) printRow(row);
}
