import { parseXmlDocument } from "slimdom";
import { describe, expect, it } from "vitest";
import { RoutekitError } from "../src/errors/errors.js";
import { evaluateXPath, parseXml } from "../src/expressions/index.js";

// slimdom loads on first use (support/lazy-module.ts, its CommonJS build): a document a user
// made with slimdom's ES module, another copy of its classes, must still be accepted.
describe("engines loaded on first use", () => {
  it("evaluates XPath over a document the user parsed with slimdom's ES module", () => {
    const document = parseXmlDocument("<order><id>42</id></order>");
    expect(evaluateXPath(document, "/order/id")).toBe("42");
    expect(evaluateXPath(parseXml("<a><b>x</b></a>"), "//b")).toBe("x");
  });

  it("refuses a value that is not a DOM document, naming what it found", () => {
    const notADocument = { nodeType: 1 } as unknown as Parameters<typeof evaluateXPath>[0];
    expect(() => evaluateXPath(notADocument, "/a")).toThrow(RoutekitError);
    expect(() => evaluateXPath(notADocument, "/a")).toThrow(
      'XPath "/a": expected XML text or a parsed document, found an object',
    );
  });
});
