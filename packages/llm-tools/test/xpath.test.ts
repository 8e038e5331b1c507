import { describe, expect, it } from "vitest";
import { runXPath, ToolInputError, XPATH_INPUT_SCHEMA } from "../src/index.js";
import { resolveXPathOptions } from "../src/xpath/index.js";
import { toolErrorThrownBy } from "./support/failures.js";

const library = `<?xml version="1.0"?>
<library>
  <book id="b1" year="1954"><title>The Fellowship</title><price>12.50</price></book>
  <book id="b2" year="1937"><title>The Hobbit</title><price>8</price></book>
  <magazine><title>Monthly</title></magazine>
</library>`;

describe("xpath contract", () => {
  it("returns the string value of a node", () => {
    expect(runXPath({ xml: library, xpath: "//book[1]/title" })).toBe("The Fellowship");
    expect(runXPath({ xml: library, xpath: "//book[2]/@year" })).toBe("1937");
    expect(runXPath({ xml: library, xpath: "/library/book[@id='b2']/title/text()" })).toBe("The Hobbit");
  });

  it("takes the first node of a node-set, as XPath 1.0 does, also inside string()", () => {
    expect(runXPath({ xml: library, xpath: "//title" })).toBe("The Fellowship");
    expect(runXPath({ xml: library, xpath: "string(//title)" })).toBe("The Fellowship");
    expect(runXPath({ xml: library, xpath: "string(//book/price)" })).toBe("12.50");
  });

  it("writes numbers and booleans the XPath 1.0 way", () => {
    expect(runXPath({ xml: library, xpath: "count(//book)" })).toBe("2");
    expect(runXPath({ xml: library, xpath: "sum(//price)" })).toBe("20.5");
    expect(runXPath({ xml: library, xpath: "count(//book) > 1" })).toBe("true");
    expect(runXPath({ xml: library, xpath: "boolean(//dvd)" })).toBe("false");
  });

  it("returns null when nothing matches", () => {
    expect(runXPath({ xml: library, xpath: "//dvd" })).toBeNull();
    expect(runXPath({ xml: library, xpath: "//book[9]/title" })).toBeNull();
  });

  it("reads the input as an object, JSON text or bytes", () => {
    const input = { xml: library, xpath: "//magazine/title" };
    expect(runXPath(JSON.stringify(input))).toBe("Monthly");
    expect(runXPath(new TextEncoder().encode(JSON.stringify(input)))).toBe("Monthly");
  });

  it("with a fixed expression reads XML text, or an {xml} object, from the body (enrichment form)", () => {
    const options = { xpath: "count(//title)" };
    expect(runXPath(library, options)).toBe("3");
    expect(runXPath({ xml: library }, options)).toBe("3");
    expect(runXPath(JSON.stringify({ xml: library }), options)).toBe("3");
    // the fixed expression wins over one in the body
    expect(runXPath({ xml: library, xpath: "//dvd" }, options)).toBe("3");
  });

  it("publishes a schema requiring xml and xpath", () => {
    expect(XPATH_INPUT_SCHEMA.required).toEqual(["xml", "xpath"]);
  });
});

describe("xpath bad input", () => {
  const cases: Array<[string, unknown, string, string | undefined]> = [
    ["empty", " ", "xpath: input is empty (expected a JSON object)", undefined],
    ["not JSON", "{xml", "xpath: input is not valid JSON", undefined],
    ["not an object", '"<a/>"', "xpath: input is not a JSON object (found the string", undefined],
    ["xml missing", { xpath: "/" }, "xpath: required key 'xml' is missing", "xml"],
    ["xpath missing", { xml: "<a/>" }, "xpath: required key 'xpath' is missing", "xpath"],
    [
      "xml of the wrong type",
      { xml: { a: 1 }, xpath: "/" },
      "xpath: key 'xml' must be a string (found an object)",
      "xml",
    ],
    [
      "xpath of the wrong type",
      { xml: "<a/>", xpath: 1 },
      "xpath: key 'xpath' must be a string (found number 1)",
      "xpath",
    ],
    ["xml empty", { xml: "", xpath: "/" }, "xpath: key 'xml' is empty (expected XML text)", "xml"],
    [
      "xml not well-formed",
      { xml: "<a><b></a>", xpath: "/" },
      "xpath: key 'xml': XML document is not well-formed",
      "xml",
    ],
    [
      "xpath syntax",
      { xml: "<a/>", xpath: "//a[" },
      "xpath: key 'xpath' is invalid: XPath \"//a[\": syntax error",
      "xpath",
    ],
  ];
  it.each(cases)("%s", (_name, body, message, key) => {
    const error = toolErrorThrownBy(() => runXPath(body));
    expect(error).toBeInstanceOf(ToolInputError);
    expect(error.message).toContain(message);
    expect((error as ToolInputError).key).toBe(key);
    expect(error.toolName).toBe("xpath");
  });

  it("refuses a document over maxDocumentBytes, naming the key and the option", () => {
    const xml = `<a>${"x".repeat(2000)}</a>`;
    const error = toolErrorThrownBy(() => runXPath({ xml, xpath: "/" }, { maxDocumentBytes: 1000 }));
    expect(error.code).toBe("TOOL_LIMIT_EXCEEDED");
    expect(error.message).toBe(
      "xpath: key 'xml' is 2007 bytes; the limit is 1000 (option 'maxDocumentBytes')",
    );
  });

  it("refuses bad options when they are resolved", () => {
    expect(() => resolveXPathOptions({ xpath: "//[" })).toThrow("xpath: option 'xpath' is invalid");
    expect(() => resolveXPathOptions({ maxDocumentBytes: -1 })).toThrow("option 'maxDocumentBytes' must be");
    expect(() => resolveXPathOptions({ path: "/" } as never)).toThrow("xpath: unknown option 'path'");
  });
});

describe("xpath attacks: XML entity tricks", () => {
  const attacks = {
    "external entity": `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>`,
    "billion laughs": `<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><lolz>&lol3;</lolz>`,
    "parameter entity": `<!DOCTYPE r [<!ENTITY % p SYSTEM "http://127.0.0.1:9/x.dtd"> %p;]><r/>`,
    "doctype after a comment": `<!-- hello --><!DOCTYPE r SYSTEM "http://127.0.0.1:9/r.dtd"><r/>`,
  };
  it.each(Object.entries(attacks))("%s is refused with a clear error", (_name, xml) => {
    const error = toolErrorThrownBy(() => runXPath({ xml, xpath: "string(/*)" }));
    expect(error.message).toMatch(/^xpath: key 'xml': XML document refused: it has a <!DOCTYPE> declaration/);
  });

  it("an undeclared entity reference is an error, never a lookup", () => {
    const error = toolErrorThrownBy(() => runXPath({ xml: "<r>&secret;</r>", xpath: "string(/r)" }));
    expect(error.message).toContain("xpath: key 'xml': XML document is not well-formed");
  });

  it("XPath 3.1 functions that read resources are unavailable", () => {
    const error = toolErrorThrownBy(() =>
      runXPath({ xml: "<r/>", xpath: "unparsed-text('file:///etc/passwd')" }),
    );
    expect(error.message).toMatch(/^xpath: key 'xpath'/);
    expect(
      toolErrorThrownBy(() => runXPath({ xml: "<r/>", xpath: "doc('http://127.0.0.1:9/x')" })).message,
    ).toMatch(/^xpath: key 'xpath'/);
  });
});
