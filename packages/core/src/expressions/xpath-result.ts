interface NodeLike {
  readonly nodeType: number;
  readonly nodeValue: string | null;
  readonly textContent: string | null;
  readonly documentElement?: { readonly textContent: string | null } | null;
}

function isNode(value: unknown): value is NodeLike {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { nodeType?: unknown }).nodeType === "number"
  );
}

/** Writes a decimal exponent form ("1.5e+22") out in full ("15000000000000000000000"). */
function expandExponent(text: string): string {
  const negative = text.startsWith("-");
  const [mantissa = "", exponentText = "0"] = (negative ? text.slice(1) : text).split("e");
  const exponent = Number(exponentText);
  const pointIndex = mantissa.includes(".") ? mantissa.indexOf(".") : mantissa.length;
  const digits = mantissa.replace(".", "");
  const newPoint = pointIndex + exponent;
  let expanded: string;
  if (newPoint <= 0) expanded = `0.${"0".repeat(-newPoint)}${digits}`;
  else if (newPoint >= digits.length) expanded = digits + "0".repeat(newPoint - digits.length);
  else expanded = `${digits.slice(0, newPoint)}.${digits.slice(newPoint)}`;
  return negative ? `-${expanded}` : expanded;
}

/** Formats a number as XPath 1.0's string() does: `3` not `3.0`, no exponent, NaN, Infinity, -0 as `0`. */
export function formatXPathNumber(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "Infinity";
  if (value === Number.NEGATIVE_INFINITY) return "-Infinity";
  if (value === 0) return "0";
  const text = String(value);
  return text.includes("e") ? expandExponent(text) : text;
}

/** The XPath 1.0 string value of one result item: a node's string value, a formatted number, "true"/"false". */
export function xpathItemToString(item: unknown): string {
  if (typeof item === "string") return item;
  if (typeof item === "number") return formatXPathNumber(item);
  if (typeof item === "boolean") return item ? "true" : "false";
  if (isNode(item)) {
    if (item.nodeType === 9) return item.documentElement?.textContent ?? "";
    return item.nodeValue ?? item.textContent ?? "";
  }
  if (item instanceof Date) return item.toISOString();
  if (Array.isArray(item)) return item.map(xpathItemToString).join(" ");
  return String(item);
}
