import { mathjs } from "./mathjs-module.js";

/** The size of an array or matrix (one entry per dimension), or undefined for anything else. */
export function collectionSize(value: unknown): number[] | undefined {
  if (mathjs().isMatrix(value)) return value.size();
  if (!Array.isArray(value)) return undefined;
  const size: number[] = [];
  let level: unknown = value;
  while (Array.isArray(level)) {
    size.push(level.length);
    level = level[0];
  }
  return size;
}

/** How many elements a matrix of `size` holds. */
export function elementCount(size: readonly number[]): number {
  let count = 1;
  for (const length of size) count *= length;
  return count;
}

/** The elements of an array or matrix, flattened; a one-element list for anything else. */
export function elementsOf(value: unknown): unknown[] {
  if (collectionSize(value) === undefined) return [value];
  const data = Array.isArray(value) ? value : (value as { valueOf(): unknown }).valueOf();
  return Array.isArray(data) ? data.flat(Number.POSITIVE_INFINITY) : [data];
}

/** The element count of an array or matrix, 0 for anything else. */
export function countOf(value: unknown): number {
  const size = collectionSize(value);
  return size === undefined ? 0 : elementCount(size);
}

/**
 * The element count of the result of an element-wise function over `args` after broadcasting
 * (sizes aligned at their last dimension, each dimension the largest), or undefined when no
 * argument is a collection.
 */
export function broadcastCount(args: readonly unknown[]): number | undefined {
  const sizes: number[][] = [];
  for (const arg of args) {
    const size = collectionSize(arg);
    if (size !== undefined) sizes.push(size);
  }
  if (sizes.length === 0) return undefined;
  const rank = Math.max(...sizes.map((size) => size.length));
  let count = 1;
  for (let dimension = 0; dimension < rank; dimension++) {
    let length = 1;
    for (const size of sizes) length = Math.max(length, size[dimension - (rank - size.length)] ?? 1);
    count *= length;
  }
  return count;
}

/** A plain number for a number, BigNumber, bigint or Fraction; undefined for anything else. */
export function numberOf(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  if (mathjs().isBigNumber(value) || mathjs().isFraction(value)) return Number(value);
  return undefined;
}

/** The largest absolute value among numbers, BigNumbers, bigints, Fractions and collections of them. */
export function largestMagnitude(value: unknown): number {
  const number = numberOf(value);
  if (number !== undefined) return Math.abs(number);
  if (mathjs().isMatrix(value)) return largestMagnitude(value.valueOf());
  if (mathjs().isRange(value)) {
    const { start, end } = value as { start: number; end: number };
    return Math.max(Math.abs(start), Math.abs(end));
  }
  if (Array.isArray(value)) {
    let largest = 0;
    for (const item of value) largest = Math.max(largest, largestMagnitude(item));
    return largest;
  }
  return 0;
}

/** The bit length of an exact integer or fraction (bigint or Fraction), 0 for anything else. */
export function exactBits(value: unknown): number {
  if (typeof value === "bigint") return bitLength(value);
  if (mathjs().isFraction(value)) return bitLength(BigInt(value.n)) + bitLength(BigInt(value.d));
  return 0;
}

function bitLength(value: bigint): number {
  const magnitude = value < 0n ? -value : value;
  return magnitude === 0n ? 0 : magnitude.toString(16).length * 4;
}
