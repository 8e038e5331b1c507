/** Where in a text secrets are, found with plain text search (no pattern is compiled). */

/** The forms of a list of secrets that are searched for. */
export interface SecretForms {
  /** Matched in any ASCII letter case; kept lower-cased (see `lowerCase`). */
  readonly anyCase: readonly string[];
  /** Matched as written (secrets too short for their encodings to be told from noise). */
  readonly exact: readonly string[];
}

/** A text's start and end (exclusive). */
export type Range = readonly [number, number];

/** The text lower-cased without changing its length (only ASCII letters when a fold would). */
export function lowerCase(text: string): string {
  const lower = text.toLowerCase();
  return lower.length === text.length ? lower : text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * Every place a form occurs in `text`. Costs one native search over the text per form, whatever
 * the secrets' length; nothing is compiled.
 */
export function rangesOf(text: string, forms: SecretForms): Range[] {
  const ranges: Range[] = [];
  if (forms.anyCase.length > 0) {
    const lower = lowerCase(text);
    for (const form of forms.anyCase) collect(lower, form, ranges);
  }
  for (const form of forms.exact) collect(text, form, ranges);
  return ranges;
}

function collect(text: string, form: string, ranges: Range[]): void {
  for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + form.length)) {
    ranges.push([at, at + form.length]);
  }
}

/** The text with each range (overlapping ones joined) replaced with `replacement`. */
export function replaceRanges(text: string, ranges: Range[], replacement: string): string {
  if (ranges.length === 0) return text;
  ranges.sort((left, right) => left[0] - right[0] || right[1] - left[1]);
  let result = "";
  let position = 0;
  let open: [number, number] | undefined;
  for (const [start, end] of ranges) {
    if (open !== undefined && start < open[1]) {
      open[1] = Math.max(open[1], end);
      continue;
    }
    if (open !== undefined) {
      result += text.slice(position, open[0]) + replacement;
      position = open[1];
    }
    open = [start, end];
  }
  if (open !== undefined) {
    result += text.slice(position, open[0]) + replacement;
    position = open[1];
  }
  return result + text.slice(position);
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/**
 * The ranges of secrets a JSON text carries with any of its characters escaped (`"sk-\u0061bc"`,
 * `\/`): the forms are searched in the text with its escapes decoded, and each place found is
 * mapped back to the escaped text it came from. Linear in the text's length.
 */
export function escapedRangesOf(text: string, forms: SecretForms): Range[] {
  const { decoded, starts } = decodeJsonEscapes(text);
  if (decoded.length === text.length) return [];
  return rangesOf(decoded, forms).map(([start, end]) => [starts[start]!, starts[end]!] as const);
}

/** The text with its JSON escapes decoded, and where in the text each decoded unit starts. */
function decodeJsonEscapes(text: string): { decoded: string; starts: number[] } {
  const units: string[] = [];
  const starts: number[] = [];
  let index = 0;
  while (index < text.length) {
    starts.push(index);
    if (text[index] === "\\") {
      const next = text[index + 1] ?? "";
      const hex = next === "u" ? text.slice(index + 2, index + 6) : "";
      if (/^[0-9a-fA-F]{4}$/.test(hex)) {
        units.push(String.fromCharCode(Number.parseInt(hex, 16)));
        index += 6;
        continue;
      }
      const short = SHORT_ESCAPES[next];
      if (short !== undefined) {
        units.push(short);
        index += 2;
        continue;
      }
    }
    units.push(text[index]!);
    index++;
  }
  starts.push(text.length);
  return { decoded: units.join(""), starts };
}
