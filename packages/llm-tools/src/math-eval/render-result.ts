import { mathjs } from "./mathjs-module.js";

/** Significant digits of the numbers inside complex and unit strings (hides binary rounding noise). */
const STRING_PRECISION = 14;

/**
 * Writes an evaluation result as JSON text:
 * - numbers as JSON numbers, NaN and infinities as `null`; booleans and strings as themselves;
 * - BigNumbers with all their digits, bigints exactly (JSON number text);
 * - Fractions as a number when whole, else as a string such as "1/3";
 * - complex numbers and units as strings with 14 significant digits ("2 + 3i", "7 cm");
 * - matrices and arrays as nested arrays; objects as objects;
 * - several statements: the value of the last one; functions and undefined: `null`.
 */
export function renderResult(value: unknown): string {
  if (value === null || value === undefined || typeof value === "function") return "null";
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "null";
  if (typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "bigint") return value.toString();
  if (mathjs().isBigNumber(value)) return value.isFinite() ? value.toString() : "null";
  if (mathjs().isFraction(value)) return renderFraction(value.s, BigInt(value.n), BigInt(value.d));
  if (mathjs().isComplex(value)) return JSON.stringify(value.format(STRING_PRECISION));
  if (mathjs().isUnit(value)) return JSON.stringify(value.format({ precision: STRING_PRECISION }));
  if (mathjs().isResultSet(value)) return renderResult(value.entries.at(-1));
  if (mathjs().isMatrix(value)) return renderResult(value.toArray());
  if (Array.isArray(value)) return `[${value.map(renderResult).join(",")}]`;
  if (Object.getPrototypeOf(value) === Object.prototype) {
    const members = Object.entries(value).map(
      ([key, member]) => `${JSON.stringify(key)}:${renderResult(member)}`,
    );
    return `{${members.join(",")}}`;
  }
  return JSON.stringify(String(value));
}

function renderFraction(sign: unknown, numerator: bigint, denominator: bigint): string {
  const signed = (BigInt(sign as bigint | number) < 0n ? "-" : "") + numerator.toString();
  return denominator === 1n ? signed : JSON.stringify(`${signed}/${denominator}`);
}
