import { RoutekitError } from "../errors/errors.js";

/** Deepest element nesting `parseXml` accepts. */
export const MAX_XML_DEPTH = 512;
/** Most attributes one element may have in a document `parseXml` accepts. */
export const MAX_XML_ATTRIBUTES = 1000;

/**
 * Refuses XML text nested deeper than `MAX_XML_DEPTH` elements or with an element of more than
 * `MAX_XML_ATTRIBUTES` attributes, in one linear scan before parsing: XPath over deep nesting
 * and parsing many attributes take time quadratic in them (8,000 nested elements made
 * `count(//a)` take 9 s; 40,000 attributes took 3.8 s to parse). Comments, CDATA sections,
 * processing instructions and quoted attribute values are skipped; well-formedness is left to
 * the parser.
 */
export function checkXmlShape(text: string): void {
  let depth = 0;
  let position = 0;
  for (;;) {
    const open = text.indexOf("<", position);
    if (open === -1) return;
    const next = text.charCodeAt(open + 1);
    if (text.startsWith("<!--", open)) {
      position = skipPast(text, "-->", open + 4);
    } else if (text.startsWith("<![CDATA[", open)) {
      position = skipPast(text, "]]>", open + 9);
    } else if (next === 0x3f /* ? */ || next === 0x21 /* ! */) {
      position = skipPast(text, ">", open + 2);
    } else if (next === 0x2f /* / */) {
      depth--;
      position = skipPast(text, ">", open + 2);
    } else {
      const { end, attributes, selfClosing } = readStartTag(text, open + 1);
      if (attributes > MAX_XML_ATTRIBUTES) {
        throw refused(text, open, `an element has more than ${MAX_XML_ATTRIBUTES} attributes`);
      }
      if (!selfClosing) {
        depth++;
        if (depth > MAX_XML_DEPTH)
          throw refused(text, open, `elements are nested more than ${MAX_XML_DEPTH} deep`);
      }
      position = end;
    }
    if (position === -1) return;
  }
}

function skipPast(text: string, marker: string, from: number): number {
  const found = text.indexOf(marker, from);
  return found === -1 ? -1 : found + marker.length;
}

/** Reads a start tag from after its `<`: where it ends, how many attributes it has, whether it is `<a/>`. */
function readStartTag(text: string, from: number): { end: number; attributes: number; selfClosing: boolean } {
  let attributes = 0;
  for (let index = from; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22 /* " */ || code === 0x27 /* ' */) {
      const close = text.indexOf(text.charAt(index), index + 1);
      if (close === -1) return { end: -1, attributes, selfClosing: false };
      index = close;
    } else if (code === 0x3d /* = */) {
      attributes++;
    } else if (code === 0x3e /* > */) {
      return { end: index + 1, attributes, selfClosing: text.charCodeAt(index - 1) === 0x2f };
    }
  }
  return { end: -1, attributes, selfClosing: false };
}

function refused(text: string, position: number, reason: string): RoutekitError {
  const line = text.slice(0, position).split("\n").length;
  return new RoutekitError("EXPRESSION_FAILED", `XML document refused: ${reason} (at line ${line})`);
}
