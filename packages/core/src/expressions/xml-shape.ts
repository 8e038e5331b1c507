import { RoutekitError } from "../errors/errors.js";

/** Deepest element nesting `parseXml` accepts. */
export const MAX_XML_DEPTH = 512;
/** Most attributes one element may have in a document `parseXml` accepts. */
export const MAX_XML_ATTRIBUTES = 1000;

const LESS_THAN = 0x3c;
const GREATER_THAN = 0x3e;
const SLASH = 0x2f;
const EQUALS = 0x3d;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;

/** Where the markup of a kind that runs to a fixed end marker starts, and that marker. */
const DELIMITED: readonly { readonly start: string; readonly end: string; readonly name: string }[] = [
  { start: "<!--", end: "-->", name: "comment" },
  { start: "<![CDATA[", end: "]]>", name: "CDATA section" },
  { start: "<?", end: "?>", name: "processing instruction" },
];

/**
 * Refuses XML text nested deeper than `MAX_XML_DEPTH` elements or with an element of more than
 * `MAX_XML_ATTRIBUTES` attributes, in one linear pass before parsing: XPath over deep nesting
 * and parsing many attributes take time quadratic in them (8,000 nested elements made
 * `count(//a)` take 9 s; 40,000 attributes took 3.8 s to parse).
 *
 * The pass is a tokenizer of XML's markup, not a search for `<`: comments run to `-->`, CDATA
 * sections to `]]>`, processing instructions to `?>`, attribute values to their closing quote
 * (they may hold `>`), start, end and empty-element tags are read by the grammar. Markup it cannot
 * read (a `<` not starting one of those, an unterminated construct, a stray end tag, a
 * `<!DOCTYPE` or any other declaration) is refused here, so what it accepts it has measured:
 * nothing the parser reads as an element can hide from the count.
 */
export function checkXmlShape(text: string): void {
  const tooDeepAt = scanXml(text, MAX_XML_DEPTH);
  if (tooDeepAt !== -1) throw refused(text, tooDeepAt, `elements are nested more than ${MAX_XML_DEPTH} deep`);
}

/**
 * Whether XML text nests elements deeper than `limit`, read as `checkXmlShape` reads it (and
 * refused as it refuses unreadable markup); the pass stops at the first element past the limit.
 */
export function xmlDeeperThan(text: string, limit: number): boolean {
  return scanXml(text, limit) !== -1;
}

/** The tokenizer's pass: -1, or where the first element deeper than `maxDepth` starts. */
function scanXml(text: string, maxDepth: number): number {
  let depth = 0;
  let position = 0;
  for (;;) {
    const open = text.indexOf("<", position);
    if (open === -1) return -1;
    const delimited = DELIMITED.find((kind) => text.startsWith(kind.start, open));
    if (delimited !== undefined) {
      const close = text.indexOf(delimited.end, open + delimited.start.length);
      if (close === -1) throw refused(text, open, `a ${delimited.name} is not terminated`);
      position = close + delimited.end.length;
      continue;
    }
    const next = text.charCodeAt(open + 1);
    if (next === 0x21 /* ! */) {
      throw refused(text, open, "declarations (<!DOCTYPE, <!ENTITY, ...) are not accepted");
    }
    if (next === SLASH) {
      if (depth === 0) throw refused(text, open, "an end tag closes no open element");
      depth--;
      position = readEndTag(text, open);
      continue;
    }
    const tag = readStartTag(text, open);
    if (!tag.empty) {
      depth++;
      if (depth > maxDepth) return open;
    }
    position = tag.end;
  }
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** True for a character that cannot be part of a name: space, markup punctuation, quotes. */
function endsName(code: number): boolean {
  return (
    isSpace(code) ||
    code === GREATER_THAN ||
    code === SLASH ||
    code === EQUALS ||
    code === LESS_THAN ||
    code === DOUBLE_QUOTE ||
    code === SINGLE_QUOTE ||
    Number.isNaN(code)
  );
}

function skipName(text: string, from: number): number {
  let index = from;
  while (!endsName(text.charCodeAt(index))) index++;
  return index;
}

function skipSpace(text: string, from: number): number {
  let index = from;
  while (isSpace(text.charCodeAt(index))) index++;
  return index;
}

/** Reads `</name S? >` from its `<`; returns the position after it. */
function readEndTag(text: string, open: number): number {
  const nameEnd = skipName(text, open + 2);
  if (nameEnd === open + 2) throw refused(text, open, "an end tag has no name");
  const close = skipSpace(text, nameEnd);
  if (text.charCodeAt(close) !== GREATER_THAN) throw refused(text, open, "an end tag is not closed by '>'");
  return close + 1;
}

/**
 * Reads a start or empty-element tag from its `<`: the name, then `name S? = S? "value"` (or
 * 'value') attributes separated by space, then `>` or `/>`. Counts the attributes as it goes.
 */
function readStartTag(text: string, open: number): { end: number; empty: boolean } {
  let index = skipName(text, open + 1);
  if (index === open + 1)
    throw refused(text, open, "a '<' starts no element, comment, CDATA section or processing instruction");
  let attributes = 0;
  for (;;) {
    const afterSpace = skipSpace(text, index);
    const code = text.charCodeAt(afterSpace);
    if (code === GREATER_THAN) return { end: afterSpace + 1, empty: false };
    if (code === SLASH && text.charCodeAt(afterSpace + 1) === GREATER_THAN) {
      return { end: afterSpace + 2, empty: true };
    }
    if (afterSpace === index || Number.isNaN(code))
      throw refused(text, open, "a start tag is not closed by '>'");
    index = readAttribute(text, afterSpace, open);
    attributes++;
    if (attributes > MAX_XML_ATTRIBUTES) {
      throw refused(text, open, `an element has more than ${MAX_XML_ATTRIBUTES} attributes`);
    }
  }
}

/** Reads `name S? = S? "value"` from the name's first character; returns the position after the value. */
function readAttribute(text: string, from: number, open: number): number {
  const nameEnd = skipName(text, from);
  if (nameEnd === from) throw refused(text, open, "a start tag has a malformed attribute");
  const equals = skipSpace(text, nameEnd);
  if (text.charCodeAt(equals) !== EQUALS) throw refused(text, open, "an attribute has no '=' and value");
  const quoteAt = skipSpace(text, equals + 1);
  const quote = text.charCodeAt(quoteAt);
  if (quote !== DOUBLE_QUOTE && quote !== SINGLE_QUOTE) {
    throw refused(text, open, "an attribute value is not quoted");
  }
  const close = text.indexOf(text.charAt(quoteAt), quoteAt + 1);
  if (close === -1) throw refused(text, open, "an attribute value is not terminated");
  return close + 1;
}

function refused(text: string, position: number, reason: string): RoutekitError {
  let line = 1;
  for (
    let index = text.indexOf("\n");
    index !== -1 && index < position;
    index = text.indexOf("\n", index + 1)
  ) {
    line++;
  }
  return new RoutekitError("EXPRESSION_FAILED", `XML document refused: ${reason} (at line ${line})`);
}
