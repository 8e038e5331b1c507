import type * as Slimdom from "slimdom";
import type { Document } from "slimdom";
import { RoutekitError } from "../errors/errors.js";
import { describeValue } from "../support/describe-value.js";
import { lazyModule } from "../support/lazy-module.js";
import { checkXmlShape } from "./xml-shape.js";

/** slimdom, loaded when the first XML document is parsed or made. */
export const slimdom = lazyModule<typeof Slimdom>("slimdom", import.meta.url);
const textDecoder = new TextDecoder();

function lineAndColumn(text: string, position: number): string {
  let line = 1;
  let lineStart = 0;
  for (
    let index = text.indexOf("\n");
    index !== -1 && index < position;
    index = text.indexOf("\n", index + 1)
  ) {
    line++;
    lineStart = index + 1;
  }
  return `line ${line}, column ${position - lineStart + 1}`;
}

function isXmlSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** Where a `<!DOCTYPE` starts in the prolog (before the root element), or -1. */
function findDoctype(text: string): number {
  let position = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    while (position < text.length && isXmlSpace(text.charCodeAt(position))) position++;
    if (text.startsWith("<!DOCTYPE", position)) return position;
    if (text.startsWith("<?", position)) {
      const end = text.indexOf("?>", position + 2);
      if (end === -1) return -1;
      position = end + 2;
    } else if (text.startsWith("<!--", position)) {
      const end = text.indexOf("-->", position + 4);
      if (end === -1) return -1;
      position = end + 3;
    } else {
      return -1;
    }
  }
}

/**
 * Parses XML text into a DOM document. A `<!DOCTYPE` is refused: DTDs bring entity expansion
 * and external entities, and no message routed here needs one. So are documents nested deeper
 * than 512 elements or with an element of more than 1000 attributes (see `checkXmlShape`).
 */
export function parseXml(text: string): Document {
  refuseDoctype(text);
  checkXmlShape(text);
  try {
    return slimdom().parseXmlDocument(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const [firstLine] = message.split("\n");
    const location = /At line (\d+), character (\d+)/.exec(message);
    const where = location === null ? "" : ` at line ${location[1]}, column ${location[2]}`;
    throw new RoutekitError("EXPRESSION_FAILED", `XML document is not well-formed: ${firstLine}${where}`, {
      cause: error,
    });
  }
}

/**
 * Refuses XML text with a `<!DOCTYPE` in its prolog (reading only the prolog), with the error
 * `parseXml` gives: a cheap check to run before handing a document to a worker.
 */
export function refuseDoctype(text: string): void {
  if (typeof text !== "string") {
    throw new RoutekitError("EXPRESSION_FAILED", `XML input must be text, found ${describeValue(text)}`);
  }
  const doctype = findDoctype(text);
  if (doctype !== -1) {
    throw new RoutekitError(
      "EXPRESSION_FAILED",
      `XML document refused: it has a <!DOCTYPE> declaration at ${lineAndColumn(text, doctype)}; ` +
        "DTDs are not accepted (they allow entity expansion and external entities)",
    );
  }
}

/**
 * Whether a value is a DOM document (node type 9): one parsed by routekit, or one a user built
 * with slimdom or another DOM implementation (fontoxpath reads any of them).
 */
export function isXmlDocument(value: unknown): value is Document {
  return typeof value === "object" && value !== null && (value as { nodeType?: unknown }).nodeType === 9;
}

/** XML text or a parsed document from a message body: text as is, bytes decoded as UTF-8. */
export function toXmlInput(value: unknown, where: string): string | Document {
  if (typeof value === "string") return value;
  if (value instanceof Uint8Array) return textDecoder.decode(value);
  if (isXmlDocument(value)) return value;
  throw new RoutekitError(
    "EXPRESSION_FAILED",
    `${where} expects XML text or a parsed document, found ${describeValue(value)}`,
  );
}
