import { checkXmlShape, MAX_XML_DEPTH, parseXml } from "@routekit/core/internal";
import { describe, expect, it } from "vitest";

const nested = (depth: number) => `${"<a>".repeat(depth)}x${"</a>".repeat(depth)}`;
const TOO_DEEP = MAX_XML_DEPTH + 100;

/** The deepest element nesting of a parsed document, measured on the DOM. */
function domDepth(text: string): number {
  const document = parseXml(text);
  let deepest = 0;
  const stack: { node: { childNodes: ArrayLike<unknown> }; depth: number }[] = [
    { node: document as never, depth: 0 },
  ];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    deepest = Math.max(deepest, depth);
    for (const child of Array.from(node.childNodes) as {
      nodeType: number;
      childNodes: ArrayLike<unknown>;
    }[]) {
      if (child.nodeType === 1) stack.push({ node: child, depth: depth + 1 });
    }
  }
  return deepest;
}

describe("attack: deep XML disguised with legal constructs", () => {
  // Each document is well-formed XML whose real nesting passes the limit; the deep part is hidden
  // behind a construct a hand scan by `<` and `>` misreads.
  it.each([
    ["a processing instruction holding '>' then '<!--'", `<r><?p > <!-- ?>${nested(TOO_DEEP)} --></r>`],
    [
      "a processing instruction holding '>' then stray end tags",
      `<r><?p >${"</a>".repeat(TOO_DEEP)} ?>${nested(TOO_DEEP)}</r>`,
    ],
    ["a processing instruction holding '>' and a quote", `<r><?p > " ?>${nested(TOO_DEEP)}<?q " ?></r>`],
    [
      "a processing instruction holding '>' then CDATA start",
      `<r><?p ><![CDATA[ ?>${nested(TOO_DEEP)}]]&gt;</r>`,
    ],
    [
      "the XML declaration holding '>' then '<!--'",
      `<?xml version="1.0"?><?x-y a="b>c" <!-- ?><r>${nested(TOO_DEEP)}--&gt;</r>`,
    ],
    ["an attribute value holding '>' and '/>'", `<r a="/>" b='>'>${nested(TOO_DEEP)}</r>`],
    ["a comment holding '?>' and '>'", `<r><!-- ?> > -->${nested(TOO_DEEP)}</r>`],
    ["a CDATA section holding '<?', '-->' and '>'", `<r><![CDATA[<?p --> >]]>${nested(TOO_DEEP)}</r>`],
    ["end tags with space before '>'", `<r>${"<a>".repeat(TOO_DEEP)}x${"</a >".repeat(TOO_DEEP)}</r>`],
    ["text holding '>' and '/>'", `<r>/> > ${nested(TOO_DEEP)}</r>`],
  ])("%s: refused by the shape check, and the document really is that deep", (_label, text) => {
    expect(() => checkXmlShape(text)).toThrow(`elements are nested more than ${MAX_XML_DEPTH} deep`);
    expect(() => parseXml(text)).toThrow(/nested more than 512 deep/);
  });

  it.each([
    ["a comment holding tags", "<r><!-- <a><a><a> --><b/></r>"],
    ["a comment holding '?>' and ']]>'", "<r><!-- ?> ]]> <? --><b/></r>"],
    ["a CDATA section holding tags, '<?', '<!--' and '-->'", "<r><![CDATA[<a><a><?p <!-- --> >]]></r>"],
    ["a CDATA section ending right after ']'", "<r><![CDATA[a]]]></r>"],
    ["a processing instruction holding '>' and tags", "<r><?p a > <b><c> ?></r>"],
    ["the XML declaration and a PI before the root", '<?xml version="1.0"?><?style x="1"?><r/>'],
    [
      "attribute values holding '>', '/>', '=' and the other quote",
      `<r a="x>y" b='p="q"' c="/>"><c d='1'/></r>`,
    ],
    ["spaces around '=' and before '/>' and '>'", '<r  a = "1"\n\tb=\'2\' ><c e ="3" /></r >'],
    ["names with ':', '.', '-' and non-ASCII letters", '<ns:r xmlns:ns="urn:x"><é.b-c/></ns:r>'],
    ["text holding '>'", "<r>a > b</r>"],
  ])("reads legal XML as the parser does: %s", (_label, text) => {
    expect(() => checkXmlShape(text)).not.toThrow();
    expect(domDepth(text)).toBeGreaterThan(0);
  });

  it.each([
    ["a DOCTYPE inside an element", "<r><!DOCTYPE r></r>", /declarations .* are not accepted/],
    ["an ENTITY declaration", "<r><!ENTITY x 'y'></r>", /declarations .* are not accepted/],
    ["an unterminated comment", `<r><!-- ${nested(10)}`, /comment is not terminated/],
    ["an unterminated CDATA section", `<r><![CDATA[ ${nested(10)}`, /CDATA section is not terminated/],
    [
      "an unterminated processing instruction",
      `<r><?p ${nested(10)}`,
      /processing instruction is not terminated/,
    ],
    ["an unterminated attribute value", `<r a="${nested(10)}`, /attribute value is not terminated/],
    ["an unquoted attribute value", "<r a=1/>", /not quoted/],
    ["a stray end tag", "</a><r/>", /end tag closes no open element/],
    ["a '<' followed by a space", "<r>< a></r>", /starts no element/],
  ])("refuses markup it cannot read: %s", (_label, text, reason) => {
    expect(() => checkXmlShape(text)).toThrow(reason);
  });

  it("agrees with the parser's own tree on random documents mixing every construct", () => {
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % below;
    };
    // Fake markup that must never count, and the constructs that carry it.
    const fake = ["<a>", "</a>", "<a/>", "<!--", "-->", "<?", "?>", "<![CDATA[", "]]>", ">", "/>", '"', "'"];
    const noise = (forbidden: string) =>
      Array.from({ length: 3 }, () => fake[random(fake.length)] ?? "")
        .filter((piece) => !forbidden.includes(piece) && piece !== "-->" && piece !== "]]>" && piece !== "?>")
        .join(" ");
    const disguise = () => {
      switch (random(5)) {
        case 0:
          return `<!-- ${noise("--").replaceAll("--", "")} -->`;
        case 1:
          return `<![CDATA[${noise("]]>")}]]>`;
        case 2:
          return `<?p ${noise("?>")} ?>`;
        case 3:
          return `<e v="${noise('"<').replaceAll('"', "").replaceAll("<", "")}" w='>'/>`;
        default:
          return "text > more";
      }
    };
    for (let round = 0; round < 40; round++) {
      const depth = MAX_XML_DEPTH - 3 + random(7);
      let text = "";
      for (let level = 0; level < depth; level++)
        text += `<a${random(2) === 0 ? ' k="x>y"' : ""}>${disguise()}`;
      text += disguise();
      for (let level = 0; level < depth; level++) text += `${disguise()}</a>`;
      const accepted = (() => {
        try {
          checkXmlShape(text);
          return true;
        } catch {
          return false;
        }
      })();
      expect(accepted, `round ${round}, depth ${depth}`).toBe(depth <= MAX_XML_DEPTH);
      if (accepted) expect(domDepth(text)).toBeLessThanOrEqual(depth + 1);
    }
  });
});
