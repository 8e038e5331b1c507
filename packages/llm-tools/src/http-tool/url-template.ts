/** A URL with `{placeholder}` segments, checked at tool creation. */
export interface UrlTemplate {
  readonly text: string;
  /** Placeholder names in order of appearance, without duplicates. */
  readonly placeholders: readonly string[];
}

const PLACEHOLDER = /\{([^{}]*)\}/g;
const PLACEHOLDER_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/**
 * Checks a URL template: an absolute http(s) URL once placeholders are filled, placeholder
 * names of letters, digits, `_` and `-`, no placeholder in the scheme or host, no fragment.
 * Returns a description of the problem as a string, or the template.
 */
export function parseUrlTemplate(url: string): UrlTemplate | string {
  const placeholders: string[] = [];
  for (const match of url.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? "";
    if (!PLACEHOLDER_NAME.test(name))
      return `has an invalid placeholder {${name}} (use letters, digits, _ or -)`;
    if (!placeholders.includes(name)) placeholders.push(name);
  }
  const filled = url.replace(PLACEHOLDER, "x");
  if (/[{}]/.test(filled)) return "has an unbalanced '{' or '}'";
  if ((AUTHORITY.exec(url)?.[0] ?? "").includes("{")) {
    return "has a placeholder in its scheme or host (placeholders may only fill the path and query)";
  }
  let parsed: URL;
  try {
    parsed = new URL(filled);
  } catch {
    return "is not an absolute URL";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return `has scheme '${parsed.protocol}' (expected http or https)`;
  if (filled.includes("#")) return "has a fragment ('#'), which is never sent to the server";
  return { text: url, placeholders };
}

/**
 * Fills placeholders from the arguments, path-escaped so that a value can never add a path
 * segment, a query or change the host: `"muthu ishere"` becomes `muthu%20ishere`, `"a/b"`
 * becomes `a%2Fb`. Empty values and the dot segments `.` and `..` are refused.
 * Returns the URL, or a description of the problem as a string.
 */
export function fillUrlTemplate(
  template: UrlTemplate,
  args: Readonly<Record<string, unknown>>,
): { url: string } | string {
  const values = new Map<string, string>();
  for (const name of template.placeholders) {
    const value = args[name];
    if (value === undefined || value === null)
      return `missing argument '${name}' for the URL placeholder {${name}}`;
    if (
      typeof value !== "string" &&
      typeof value !== "boolean" &&
      !(typeof value === "number" && Number.isFinite(value))
    ) {
      return `argument '${name}' fills the URL placeholder {${name}} and must be a string, number or boolean`;
    }
    const text = String(value);
    if (text === "" || text === "." || text === "..") {
      return `argument '${name}' fills the URL placeholder {${name}} and must not be empty, '.' or '..'`;
    }
    try {
      values.set(name, encodeURIComponent(text));
    } catch {
      return `argument '${name}' is not well-formed Unicode text`;
    }
  }
  return { url: template.text.replace(PLACEHOLDER, (_, name: string) => values.get(name) ?? "") };
}
