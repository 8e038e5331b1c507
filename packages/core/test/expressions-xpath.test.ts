import { describe, expect, it } from "vitest";
import { ExpressionError, RoutekitError } from "../src/errors/errors.js";
import { checkXPathSyntax, evaluateXPath, formatXPathNumber, parseXml } from "../src/expressions/index.js";

const library = `<?xml version="1.0"?>
<!-- a small library -->
<library>
  <book id="b1" lang="en"><title>Dune</title><price>8</price><author>Herbert</author></book>
  <book id="b2"><title>Emma</title><price>12.5</price><author>Austen</author></book>
  <book id="b3"><title>Ulysses</title><price>20</price><author>Joyce</author></book>
  <note>Total <b>three</b> books</note>
</library>`;

describe("evaluateXPath gives XPath 1.0 results", () => {
  it("returns the string value of the first node of a node-set", () => {
    expect(evaluateXPath(library, "//book[1]/title")).toBe("Dune");
    expect(evaluateXPath(library, "//book/title")).toBe("Dune");
    expect(evaluateXPath(library, "//book[price > 10]/title/text()")).toBe("Emma");
    expect(evaluateXPath(library, "//book/@id")).toBe("b1");
    expect(evaluateXPath(library, "//book[@id='b3']/author")).toBe("Joyce");
    expect(evaluateXPath(library, "//note")).toBe("Total three books");
    expect(evaluateXPath(library, "//comment()")).toBe(" a small library ");
    expect(evaluateXPath("<a>x<b>y</b></a>", "/")).toBe("xy");
  });

  it("returns null when nothing matches", () => {
    expect(evaluateXPath(library, "//magazine")).toBeNull();
    expect(evaluateXPath(library, "//book[price > 100]/title")).toBeNull();
    expect(evaluateXPath(library, "//book/@missing")).toBeNull();
  });

  it("formats numbers as XPath 1.0 does", () => {
    expect(evaluateXPath(library, "count(//book)")).toBe("3");
    expect(evaluateXPath(library, "sum(//price)")).toBe("40.5");
    expect(evaluateXPath(library, "sum(//book[1]/price) * 2")).toBe("16");
    expect(evaluateXPath(library, "number('abc')")).toBe("NaN");
    expect(evaluateXPath(library, "1 div 0")).toBe("Infinity");
    expect(evaluateXPath(library, "-1 div 0")).toBe("-Infinity");
    expect(evaluateXPath(library, "10 div 4")).toBe("2.5");
    expect(evaluateXPath(library, "round(-0.4)")).toBe("0");
    expect(evaluateXPath(library, "1000000 * 1000000 * 1000000 * 1000")).toBe("1000000000000000000000");
  });

  it("returns booleans as true/false and strings as they are", () => {
    expect(evaluateXPath(library, "count(//book) = 3")).toBe("true");
    expect(evaluateXPath(library, "boolean(//magazine)")).toBe("false");
    expect(evaluateXPath(library, "//book/@id = 'b2'")).toBe("true");
    expect(evaluateXPath(library, "'plain'")).toBe("plain");
    expect(evaluateXPath(library, "normalize-space('  a   b ')")).toBe("a b");
  });

  it("takes the first node where XPath 1.0 converts a node-set (XPath 3.1 raises XPTY0004)", () => {
    expect(evaluateXPath(library, "string(//book/title)")).toBe("Dune");
    expect(evaluateXPath(library, "concat(//title, '-', //author)")).toBe("Dune-Herbert");
    expect(evaluateXPath(library, "string-length(//title)")).toBe("4");
    expect(evaluateXPath(library, "number(//price)")).toBe("8");
    expect(evaluateXPath(library, "//price + 1")).toBe("9");
    expect(evaluateXPath(library, "-//price")).toBe("-8");
    expect(evaluateXPath(library, "//price * 2 + //price div 2")).toBe("20");
    expect(evaluateXPath(library, "substring(//title, 1, 2)")).toBe("Du");
    expect(evaluateXPath(library, "contains(//title, 'un')")).toBe("true");
    expect(evaluateXPath(library, "starts-with(//author, 'He')")).toBe("true");
    expect(evaluateXPath(library, "translate(//title, 'u', 'U')")).toBe("DUne");
    expect(evaluateXPath(library, "local-name(//book/*)")).toBe("title");
    expect(evaluateXPath(library, "//book[string-length(title) > 4]/@id")).toBe("b3");
    expect(evaluateXPath(library, "string(//book[position() > 1]/title)")).toBe("Emma");
    expect(evaluateXPath(library, 'concat( //title , "|" , //book/@id )')).toBe("Dune|b1");
    // the same expressions keep working on documents with a single match
    expect(evaluateXPath("<r><title>Solo</title><price>3</price></r>", "string(//title)")).toBe("Solo");
    expect(evaluateXPath("<r><title>Solo</title><price>3</price></r>", "//price + 1")).toBe("4");
    expect(evaluateXPath("<r/>", "string(//title)")).toBe("");
    expect(evaluateXPath("<r/>", "number(//price)")).toBe("NaN");
  });

  it("gives the same answer for one expression over many, one and no matching nodes", () => {
    const expression = "concat(string(//item), ':', //item * 2)";
    expect(evaluateXPath("<r><item>4</item><item>5</item></r>", expression)).toBe("4:8");
    expect(evaluateXPath("<r><item>6</item></r>", expression)).toBe("6:12");
    expect(evaluateXPath("<r/>", expression)).toBe(":");
    expect(evaluateXPath("<r><item>7</item><item>1</item></r>", expression)).toBe("7:14");
  });

  it("reports XPTY0004 when the expression is not XPath 1.0 and cannot be bridged", () => {
    expect(() => evaluateXPath(library, "//price + 1 eq 9")).toThrow(
      /^XPath "\/\/price \+ 1 eq 9" failed: XPTY0004/,
    );
  });

  it("accepts a parsed document", () => {
    const document = parseXml(library);
    expect(evaluateXPath(document, "count(//author)")).toBe("3");
    expect(evaluateXPath(document, "//book[last()]/title")).toBe("Ulysses");
  });
});

describe("XPath errors", () => {
  it("reports a syntax error naming the expression and the column", () => {
    try {
      evaluateXPath(library, "//book[");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ExpressionError);
      expect((error as ExpressionError).message).toMatch(/^XPath "\/\/book\[": syntax error at column 7: /);
      expect((error as ExpressionError).column).toBe(7);
    }
    expect(() => checkXPathSyntax("count(//a) +")).toThrow(
      'XPath "count(//a) +": syntax error at column 13: Failed to parse script. Expected an expression',
    );
    expect(() => checkXPathSyntax("//a\n[")).toThrow(/syntax error at line 2, column 1/);
    expect(() => checkXPathSyntax("//a[1]")).not.toThrow();
  });

  it("reports unknown functions and variables as expression errors", () => {
    expect(() => evaluateXPath(library, "frobnicate(//a)")).toThrow(ExpressionError);
    expect(() => evaluateXPath(library, "frobnicate(//a)")).toThrow(/XPath "frobnicate\(\/\/a\)": XPST0017/);
    expect(() => evaluateXPath(library, "$missing")).toThrow(/XPST0008/);
  });

  it("reports dynamic errors as EXPRESSION_FAILED", () => {
    try {
      evaluateXPath(library, "xs:integer('x')");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(RoutekitError);
      expect(error).not.toBeInstanceOf(ExpressionError);
      expect((error as RoutekitError).code).toBe("EXPRESSION_FAILED");
      expect((error as RoutekitError).message).toMatch(/^XPath "xs:integer\('x'\)" failed: FORG0001/);
    }
  });

  it("rejects empty and oversized expressions", () => {
    expect(() => evaluateXPath(library, "")).toThrow("XPath must be a non-empty text");
    expect(() => evaluateXPath(library, `//${"a".repeat(5000)}`)).toThrow("the limit is 4096");
  });
});

describe("parseXml", () => {
  it("parses a well-formed document", () => {
    expect(parseXml("<a><b>1</b></a>").documentElement?.textContent).toBe("1");
  });

  it("refuses any DOCTYPE (entity expansion and external entities)", () => {
    const attacks = [
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><lolz>&lol2;</lolz>',
      '<!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><foo>&xxe;</foo>',
      '\uFEFF<!-- c -->\n  <!DOCTYPE html SYSTEM "about:legacy-compat"><html/>',
    ];
    for (const xml of attacks) {
      expect(() => parseXml(xml)).toThrow(RoutekitError);
      expect(() => parseXml(xml)).toThrow(
        /XML document refused: it has a <!DOCTYPE> declaration at line \d+, column \d+/,
      );
      expect(() => evaluateXPath(xml, "string(/)")).toThrow(/<!DOCTYPE>/);
    }
    expect(() => parseXml("<a/>\n<!DOCTYPE a>")).toThrow(
      /declarations \(<!DOCTYPE, <!ENTITY, ...\) are not accepted \(at line 2\)/,
    );
  });

  it("keeps text that merely mentions a DOCTYPE inside the root element", () => {
    expect(evaluateXPath("<a><![CDATA[<!DOCTYPE html>]]></a>", "/a")).toBe("<!DOCTYPE html>");
  });

  it("reports malformed XML with its position", () => {
    expect(() => parseXml("<a><b></a>")).toThrow(
      'XML document is not well-formed: non-well-formed element: found end tag "a" but expected "b" at line 1, column 7',
    );
    expect(() => parseXml("")).toThrow(/XML document is not well-formed: .* at line 1, column 1/);
    expect(() => parseXml("<a>&unknown;</a>")).toThrow(/reference to unknown entity "unknown"/);
    expect(() => parseXml(42 as unknown as string)).toThrow("XML input must be text, found number 42");
  });
});

describe("formatXPathNumber", () => {
  it("writes numbers without exponents or trailing zeros", () => {
    expect(formatXPathNumber(3)).toBe("3");
    expect(formatXPathNumber(-0)).toBe("0");
    expect(formatXPathNumber(0.5)).toBe("0.5");
    expect(formatXPathNumber(1.5e22)).toBe("15000000000000000000000");
    expect(formatXPathNumber(-2e21)).toBe("-2000000000000000000000");
    expect(formatXPathNumber(1.25e-7)).toBe("0.000000125");
    expect(formatXPathNumber(Number.NaN)).toBe("NaN");
    expect(formatXPathNumber(Number.NEGATIVE_INFINITY)).toBe("-Infinity");
  });
});
