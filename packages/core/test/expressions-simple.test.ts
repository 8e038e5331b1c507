// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are simple-language expressions, not JavaScript templates
import { describe, expect, it } from "vitest";
import {
  body,
  compileExpression,
  compilePredicate,
  constant,
  type ExpressionExchange,
  header,
  jsonpath,
  simple,
  xpath,
} from "../src/expressions/index.js";

function exchangeOf(fields: Partial<ExpressionExchange> = {}): ExpressionExchange {
  return { id: "exchange-1", body: undefined, headers: {}, properties: {}, ...fields };
}

const order = exchangeOf({
  body: {
    kind: "book",
    items: [
      { name: "Dune", price: 12.5 },
      { name: "Emma", price: 7 },
    ],
    "odd.key": "odd",
  },
  headers: {
    n: 21,
    kind: "book",
    "Content-Type": "application/json",
    "a.b": "dotted",
    text: "Hello",
    empty: "",
  },
  properties: { attempt: 2, tags: ["a", "b"] },
  routeId: "orders",
  fromEndpoint: "direct:orders",
  pattern: "InOut",
});

const evaluate = (text: string, exchange: ExpressionExchange = order) => compileExpression(text)(exchange);
const test = (text: string, exchange: ExpressionExchange = order) => compilePredicate(text)(exchange);

describe("compileExpression: typing", () => {
  it("returns a text without ${ as a constant", () => {
    expect(evaluate("plain text")).toBe("plain text");
    expect(evaluate("header.n * 2")).toBe("header.n * 2");
  });

  it("yields the value with its type for exactly one ${}", () => {
    expect(evaluate("${body.items}")).toBe((order.body as { items: unknown }).items);
    expect(evaluate("${header.n * 2}")).toBe(42);
    expect(evaluate("${header.n > 20}")).toBe(true);
    expect(evaluate("${body.missing}")).toBeUndefined();
    expect(evaluate("${null}")).toBeNull();
  });

  it("renders a template with text around or several ${} as a string", () => {
    expect(evaluate("n=${header.n}")).toBe("n=21");
    expect(evaluate("${header.n}${header.n}")).toBe("2121");
    expect(evaluate(" ${header.n}")).toBe(" 21");
    expect(evaluate("[${body.missing}|${null}]")).toBe("[|]");
    expect(evaluate("items: ${body.items[1]}")).toBe('items: {"name":"Emma","price":7}');
    expect(evaluate("${header.n}: ${header.n > 1}")).toBe("21: true");
  });

  it("keeps \\${ as literal text", () => {
    expect(evaluate("cost \\${x} is ${header.n}")).toBe("cost ${x} is 21");
    expect(evaluate("only \\${literal}")).toBe("only ${literal}");
  });

  it("returns a function as is and caches compiled text", () => {
    const function_ = (exchange: ExpressionExchange) => exchange.id;
    expect(compileExpression(function_)).toBe(function_);
    expect(compileExpression("${header.n + 1}")).toBe(compileExpression("${header.n + 1}"));
  });

  it("renders dates as ISO text and bytes as UTF-8 in templates", () => {
    const exchange = exchangeOf({ body: new TextEncoder().encode("héllo"), headers: { at: new Date(0) } });
    expect(evaluate("${body}!", exchange)).toBe("héllo!");
    expect(evaluate("at ${header.at}", exchange)).toBe("at 1970-01-01T00:00:00.000Z");
  });
});

describe("simple language: data access", () => {
  it("reads body, headers, properties and exchange fields", () => {
    expect(evaluate("${body.kind}")).toBe("book");
    expect(evaluate("${header.kind}")).toBe("book");
    expect(evaluate("${headers.n}")).toBe(21);
    expect(evaluate("${header['a.b']}")).toBe("dotted");
    expect(evaluate("${header.Content-Type}")).toBe("application/json");
    expect(evaluate("${property.attempt}")).toBe(2);
    expect(evaluate("${exchangeProperty.tags[1]}")).toBe("b");
    expect(evaluate("${exchangeId}")).toBe("exchange-1");
    expect(evaluate("${routeId}")).toBe("orders");
    expect(evaluate("${fromEndpoint}")).toBe("direct:orders");
    expect(evaluate("${exchangePattern}")).toBe("InOut");
    expect(evaluate("${headers}")).toBe(order.headers);
  });

  it("reads dotted and indexed paths, with negative indexes from the end", () => {
    expect(evaluate("${body.items[0].name}")).toBe("Dune");
    expect(evaluate("${body['items'][1]['name']}")).toBe("Emma");
    expect(evaluate("${body['odd.key']}")).toBe("odd");
    expect(evaluate("${body.items[-1].name}")).toBe("Emma");
    expect(evaluate("${body.items.0.name}")).toBe("Dune");
    expect(evaluate("${body.items.length}")).toBe(2);
    expect(evaluate("${header.text.length}")).toBe(5);
    expect(evaluate("${header.text[0]}")).toBe("H");
    expect(evaluate("${body.items[property.attempt - 1].name}")).toBe("Emma");
  });

  it("yields undefined for access through undefined or null, like optional chaining", () => {
    expect(evaluate("${body.nothing.deeper[3].name}")).toBeUndefined();
    expect(evaluate("${header.n.x}")).toBeUndefined();
    expect(evaluate("${body.items[9].name}")).toBeUndefined();
    expect(evaluate("${body.items[0.5]}")).toBeUndefined();
  });

  it("reads the exception and its message", () => {
    const failed = exchangeOf({ error: new TypeError("boom") });
    expect(evaluate("${exception.message}", failed)).toBe("boom");
    expect(evaluate("${exception.name}", failed)).toBe("TypeError");
    expect(evaluate("failed: ${exception}", failed)).toBe("failed: TypeError: boom");
    expect(evaluate("${exception.message ?? 'none'}")).toBe("none");
  });

  it("never returns functions found on values", () => {
    expect(evaluate("${body.toString}")).toBeUndefined();
    expect(evaluate("${body.hasOwnProperty}")).toBeUndefined();
    expect(
      evaluate("${body[header.key]}", exchangeOf({ body: {}, headers: { key: "valueOf" } })),
    ).toBeUndefined();
  });
});

describe("simple language: operators", () => {
  it("parses literals", () => {
    expect(evaluate("${42}")).toBe(42);
    expect(evaluate("${1.5e3}")).toBe(1500);
    expect(evaluate("${'single'}")).toBe("single");
    expect(evaluate('${"double"}')).toBe("double");
    expect(evaluate("${'it\\'s \\u00e9 \\n'}")).toBe("it's é \n");
    expect(evaluate("${true}")).toBe(true);
    expect(evaluate("${false}")).toBe(false);
  });

  it("does arithmetic, with + concatenating text", () => {
    expect(evaluate("${1 + 2 * 3}")).toBe(7);
    expect(evaluate("${(1 + 2) * 3}")).toBe(9);
    expect(evaluate("${10 - 4 - 3}")).toBe(3);
    expect(evaluate("${20 / 4 / 5}")).toBe(1);
    expect(evaluate("${17 % 5}")).toBe(2);
    expect(evaluate("${-header.n}")).toBe(-21);
    expect(evaluate("${- -3}")).toBe(3);
    expect(evaluate("${'a' + 'b'}")).toBe("ab");
    expect(evaluate("${'n' + header.n}")).toBe("n21");
    expect(evaluate("${'x' + body.missing}")).toBe("x");
    expect(evaluate("${'5' * 2}")).toBe(10);
  });

  it("compares with loose typing between numbers and numeric text", () => {
    const exchange = exchangeOf({ headers: { text5: "5", flag: "true" } });
    expect(evaluate("${header.text5 == 5}", exchange)).toBe(true);
    expect(evaluate("${header.text5 != 5}", exchange)).toBe(false);
    expect(evaluate("${header.flag == true}", exchange)).toBe(true);
    expect(evaluate("${header.missing == null}", exchange)).toBe(true);
    expect(evaluate("${header.text5 > 4}", exchange)).toBe(true);
    expect(evaluate("${header.text5 >= 5}", exchange)).toBe(true);
    expect(evaluate("${header.text5 < 5}", exchange)).toBe(false);
    expect(evaluate("${header.text5 <= 4}", exchange)).toBe(false);
    expect(evaluate("${'apple' < 'banana'}", exchange)).toBe(true);
    expect(evaluate("${header.missing > 1}", exchange)).toBe(false);
  });

  it("combines with AND/OR/NOT and &&/||/!, short-circuiting", () => {
    expect(evaluate("${true AND false}")).toBe(false);
    expect(evaluate("${true and true}")).toBe(true);
    expect(evaluate("${false OR true}")).toBe(true);
    expect(evaluate("${true && header.n}")).toBe(21);
    expect(evaluate("${body.missing || 'fallback'}")).toBe("fallback");
    expect(evaluate("${!true}")).toBe(false);
    expect(evaluate("${NOT header.kind == 'book'}")).toBe(false);
    expect(evaluate("${!header.empty}")).toBe(true);
    expect(evaluate("${false && body.items[0].name.nothing}")).toBe(false);
  });

  it("binds AND tighter than OR, comparison tighter than AND, and NOT as in SQL", () => {
    expect(evaluate("${true OR false AND false}")).toBe(true);
    expect(evaluate("${(true OR false) AND false}")).toBe(false);
    expect(evaluate("${header.n > 20 AND header.kind == 'book'}")).toBe(true);
    expect(evaluate("${NOT false AND false}")).toBe(false);
    expect(evaluate("${!false == true}")).toBe(true);
    expect(evaluate("${1 + 2 == 3 ? 'yes' : 'no'}")).toBe("yes");
  });

  it("evaluates ?: (right-associative) and ??", () => {
    expect(evaluate("${header.n > 30 ? 'big' : header.n > 20 ? 'medium' : 'small'}")).toBe("medium");
    expect(evaluate("${body.missing ?? 'default'}")).toBe("default");
    expect(evaluate("${header.empty ?? 'default'}")).toBe("");
    expect(evaluate("${body.missing ?? body.other ?? 3}")).toBe(3);
  });

  it("tests membership with IN and NOT IN", () => {
    expect(evaluate("${header.kind IN ('book', 'dvd')}")).toBe(true);
    expect(evaluate("${header.kind in ('dvd')}")).toBe(false);
    expect(evaluate("${header.kind NOT IN ('dvd', 'cd')}")).toBe(true);
    expect(evaluate("${header.n IN (20, 21)}")).toBe(true);
    expect(evaluate("${'b' IN property.tags}")).toBe(true);
    expect(evaluate("${'c' IN (property.tags)}")).toBe(false);
    expect(evaluate("${header.kind IN 'dvd, book'}")).toBe(true);
    expect(evaluate("${header.kind NOT IN 'dvd,cd'}")).toBe(true);
  });

  it("matches text with contains, startsWith, endsWith and regex", () => {
    expect(evaluate("${header.text contains 'ell'}")).toBe(true);
    expect(evaluate("${property.tags contains 'a'}")).toBe(true);
    expect(evaluate("${header.text startsWith 'He'}")).toBe(true);
    expect(evaluate("${header.text endsWith 'lo'}")).toBe(true);
    expect(evaluate("${header.text NOT contains 'z'}")).toBe(true);
    expect(evaluate("${body.missing contains 'z'}")).toBe(false);
    expect(evaluate("${header.text regex 'H.*o'}")).toBe(true);
    expect(evaluate("${header.text regex 'ell'}")).toBe(false);
    expect(evaluate("${header.text not regex '\\\\d+'}")).toBe(true);
    expect(evaluate("${header.n regex '\\\\d+'}")).toBe(true);
    expect(evaluate("${body.missing regex '.*'}")).toBe(false);
  });
});

describe("simple language: functions", () => {
  it("offers string functions, also as methods", () => {
    expect(evaluate("${upper(header.text)}")).toBe("HELLO");
    expect(evaluate("${header.text.lower()}")).toBe("hello");
    expect(evaluate("${trim('  x  ')}")).toBe("x");
    expect(evaluate("${length(header.text)}")).toBe(5);
    expect(evaluate("${size(body.items)}")).toBe(2);
    expect(evaluate("${size(body.missing)}")).toBe(0);
    expect(evaluate("${substring(header.text, 1, 3)}")).toBe("el");
    expect(evaluate("${header.text.substring(3)}")).toBe("lo");
    expect(evaluate("${replace('a-b-c', '-', '+')}")).toBe("a+b+c");
    expect(evaluate("${split('a,b,c', ',')}")).toEqual(["a", "b", "c"]);
    expect(evaluate("${join(property.tags, '|')}")).toBe("a|b");
    expect(evaluate("${join(split('x y', ' '))}")).toBe("x,y");
    expect(evaluate("${contains(header.text, 'll')}")).toBe(true);
    expect(evaluate("${startsWith(header.text, 'x')}")).toBe(false);
    expect(evaluate("${header.text.endsWith('o')}")).toBe(true);
  });

  it("offers number functions", () => {
    expect(evaluate("${abs(-3)}")).toBe(3);
    expect(evaluate("${round(2.5)}")).toBe(3);
    expect(evaluate("${floor(2.7)}")).toBe(2);
    expect(evaluate("${ceil(2.1)}")).toBe(3);
    expect(evaluate("${min(4, 2, 8)}")).toBe(2);
    expect(evaluate("${max(split('3,9,1', ','))}")).toBe(9);
    expect(evaluate("${number('12.5') + 1}")).toBe(13.5);
    expect(evaluate("${number(true)}")).toBe(1);
    expect(evaluate("${string(12) + 1}")).toBe("121");
    expect(evaluate("${string(body.missing)}")).toBe("");
  });

  it("offers uuid() and now()", () => {
    const first = evaluate("${uuid()}");
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(evaluate("${uuid()}")).not.toBe(first);
    const before = Date.now();
    const now = evaluate("${now()}");
    expect(now).toBeInstanceOf(Date);
    expect((now as Date).getTime()).toBeGreaterThanOrEqual(before);
    expect(evaluate("${now() > 0}")).toBe(true);
  });

  it("evaluates jpath() over the body or a given document", () => {
    const exchange = exchangeOf({
      body: '{"store":{"book":[{"title":"A","price":5},{"title":"B","price":15}]}}',
      headers: { doc: { x: { y: 7 } } },
    });
    expect(evaluate("${jpath('$.store.book[0].title')}", exchange)).toBe("A");
    expect(evaluate("${jpath('$.store.book[?(@.price > 10)].title')}", exchange)).toEqual(["B"]);
    expect(evaluate("${jpath('$.x.y', header.doc)}", exchange)).toBe(7);
    expect(evaluate("${header.doc.jpath('$.x.y') * 2}", exchange)).toBe(14);
    expect(evaluate("${jpath('$.missing', header.doc) ?? 'none'}", exchange)).toBe("none");
    expect(evaluate("total: ${jpath('$..price', body)}", exchange)).toBe("total: [5,15]");
  });

  it("evaluates xpath() over the body as XML text", () => {
    const exchange = exchangeOf({
      body: "<order><item>pen</item><item>ink</item><total>3</total></order>",
      headers: { other: "<a><b>x</b></a>" },
    });
    expect(evaluate("${xpath('//item[2]/text()')}", exchange)).toBe("ink");
    expect(evaluate("${xpath('count(//item)')}", exchange)).toBe("2");
    expect(evaluate("${number(xpath('/order/total')) * 2}", exchange)).toBe(6);
    expect(evaluate("${xpath('//b', header.other)}", exchange)).toBe("x");
    expect(evaluate("${xpath('//none') ?? 'nothing'}", exchange)).toBe("nothing");
  });
});

describe("compilePredicate", () => {
  it("accepts ${} compared outside, a bare predicate, and one ${} holding everything", () => {
    expect(test("${header.kind} == 'book'")).toBe(true);
    expect(test("header.kind == 'book'")).toBe(true);
    expect(test("${header.kind == 'dvd'}")).toBe(false);
    expect(test("${header.n} > 20 AND ${body.items.length} == 2")).toBe(true);
    expect(test("header.kind IN ('dvd', 'cd')")).toBe(false);
  });

  it("tests the truthiness of a value", () => {
    expect(test("${body.items}")).toBe(true);
    expect(test("${header.empty}")).toBe(false);
    expect(test("body.missing")).toBe(false);
    expect(test("header.n")).toBe(true);
  });

  it("wraps a function and reads a simple() expression as a predicate", () => {
    expect(compilePredicate((exchange) => exchange.headers.kind)(order)).toBe(true);
    expect(compilePredicate(() => 0)(order)).toBe(false);
    expect(compilePredicate(simple("${header.kind} == 'dvd'"))(order)).toBe(false);
  });
});

describe("helpers", () => {
  it("simple() forces simple-language reading", () => {
    expect(simple("header.n * 2")(order)).toBe(42);
    expect(simple("${header.n * 2}")(order)).toBe(42);
    expect(simple("n=${header.n}")(order)).toBe("n=21");
  });

  it("constant(), header() and body() read what they say", () => {
    const value = { a: 1 };
    expect(constant(value)(order)).toBe(value);
    expect(header("Content-Type")(order)).toBe("application/json");
    expect(header("absent")(order)).toBeUndefined();
    expect(body()(order)).toBe(order.body);
  });

  it("jsonpath() and xpath() evaluate over the body", () => {
    expect(jsonpath("$.items[*].name")(order)).toEqual(["Dune", "Emma"]);
    expect(jsonpath("$.kind")(order)).toBe("book");
    const xml = exchangeOf({ body: "<a><b>1</b><b>2</b></a>" });
    expect(xpath("sum(//b)")(xml)).toBe("3");
    expect(xpath("//b")(exchangeOf({ body: null }))).toBeNull();
  });
});
