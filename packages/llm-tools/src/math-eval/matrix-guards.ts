import { refuse } from "./evaluation-meter.js";
import type { Guard } from "./guard.js";
import {
  broadcastCount,
  collectionSize,
  countOf,
  elementCount,
  elementsOf,
  largestMagnitude,
  numberOf,
} from "./value-shapes.js";

/** Largest matrix side for the cubic algorithms (det, inv, lusolve, matrix division and powers). */
export const CUBIC_MAX_DIMENSION = 64;
/** Largest matrix side for the matrix 2-norm, which runs an eigenvalue iteration. */
export const TWO_NORM_MAX_DIMENSION = 16;
/** Most multiply-add steps of one matrix product. */
export const MAX_MULTIPLY_STEPS = 1_000_000;
/** Characters of text counted as one element when a user-defined function returns a string. */
export const TEXT_CHARS_PER_ELEMENT = 16;

/** The numbers a size is given as: number arguments, or the values of one array or matrix. */
function requestedDimensions(args: readonly unknown[]): number[] {
  const dimensions: number[] = [];
  for (const arg of args) {
    const number = numberOf(arg);
    if (number !== undefined) dimensions.push(number);
    else if (collectionSize(arg) !== undefined) dimensions.push(...flatNumbers(arg));
  }
  return dimensions;
}

function flatNumbers(value: unknown): number[] {
  return elementsOf(value).map((item) => numberOf(item) ?? 0);
}

/** zeros, ones: `zeros(2, 3)`, `zeros([2, 3])`. */
export const dimensionsGuard: Guard = (args, meter, name) => {
  meter.allocate(elementCount(requestedDimensions(args)), name);
};

/** identity: one number means a square matrix. */
export const identityGuard: Guard = (args, meter, name) => {
  const dimensions = requestedDimensions(args);
  const [rows = 0, columns = rows] = dimensions;
  meter.allocate(rows * columns, name);
};

/** random, randomInt: only an array or matrix argument is a size (numbers are bounds). */
export const sizeArgumentGuard: Guard = (args, meter, name) => {
  const size = args.find((arg) => collectionSize(arg) !== undefined);
  if (size !== undefined) meter.allocate(elementCount(flatNumbers(size)), name);
};

/** resize(x, size, defaultValue). */
export const resizeGuard: Guard = (args, meter, name) => {
  meter.allocate(elementCount(flatNumbers(args[1])), name);
};

/** range(start, end, step?) and range("start:end") / range("start:step:end"). */
export const rangeGuard: Guard = (args, meter, name) => {
  let [start, end, step] = args.slice(0, 3).map(numberOf);
  if (typeof args[0] === "string") {
    const parts = args[0].split(":").map((part) => Number(part.trim()));
    [start, step, end] = parts.length === 3 ? parts : [parts[0], 1, parts[1]];
  }
  if (start === undefined || end === undefined) return;
  const stride = Math.abs(step ?? 1);
  if (stride === 0 || Number.isNaN(stride)) return;
  meter.allocate(Math.floor(Math.abs(end - start) / stride) + 1, name);
};

/** pickRandom(possibles, number?, weights?) and pickRandom(possibles, { number }). */
export const pickRandomGuard: Guard = (args, meter, name) => {
  const option = args[1];
  const count = numberOf(option) ?? numberOf((option as { number?: unknown } | undefined)?.number);
  if (count !== undefined) meter.allocate(count, name);
};

/** diag(vector, k?) builds a (n + |k|) square matrix. */
export const diagGuard: Guard = (args, meter, name) => {
  const size = collectionSize(args[0]);
  if (size?.length !== 1) return;
  const side = (size[0] ?? 0) + Math.abs(numberOf(args[1]) ?? 0);
  meter.allocate(side * side, name);
};

/** kron(a, b) has count(a) * count(b) elements. */
export const kronGuard: Guard = (args, meter, name) => {
  meter.allocate(Math.max(1, countOf(args[0])) * Math.max(1, countOf(args[1])), name);
};

/** concat, matrixFromRows, matrixFromColumns: the counts add up. */
export const sumOfPartsGuard: Guard = (args, meter, name) => {
  let total = 0;
  for (const arg of args) total += countOf(arg);
  if (total > 0) meter.allocate(total, name);
};

/** matrix(data) and every array literal in an expression. */
export const matrixGuard: Guard = (args, meter, name) => {
  meter.allocate(countOf(args[0]), name);
};

/** Element-wise functions (with broadcasting): add, equal, dotMultiply, map with several arrays... */
export const elementwiseGuard: Guard = (args, meter, name) => {
  const count = broadcastCount(args);
  if (count !== undefined) meter.allocate(count, name);
};

/** nthRoots(x, n) returns n roots. */
export const nthRootsGuard: Guard = (args, meter, name) => {
  meter.allocate(numberOf(args[1]) ?? 2, name);
};

/**
 * index(...) (also behind `A[i, j]` and `A[i] = x`): assigning past the end grows a matrix, so the
 * largest index of every dimension together must fit in maxMatrixElements.
 */
export const indexGuard: Guard = (args, meter) => {
  if (args.some((arg) => typeof arg === "string")) return;
  const cells = elementCount(args.map((arg) => largestMagnitude(arg) + 1));
  if (cells > meter.maxMatrixElements) {
    throw refuse(
      `an index reaches ${cells} elements, more than maxMatrixElements (${meter.maxMatrixElements})`,
    );
  }
};

/** multiply(a, b, ...): each product's result counts against the budget and its steps are bounded. */
export const multiplyGuard: Guard = (args, meter, name) => {
  let current = collectionSize(args[0]);
  for (const arg of args.slice(1)) {
    const next = collectionSize(arg);
    if (current === undefined || next === undefined) {
      current = current ?? next;
      if (current !== undefined) meter.allocate(elementCount(current), name);
      continue;
    }
    const [result, steps] = productShape(current, next);
    if (steps > MAX_MULTIPLY_STEPS) {
      throw refuse(`${name} would take ${steps} multiply steps, more than ${MAX_MULTIPLY_STEPS}`);
    }
    meter.allocate(elementCount(result), name);
    current = result;
  }
};

/** The result size and multiply-add steps of a product of two arrays or matrices (at most 2-D). */
function productShape(left: number[], right: number[]): [number[], number] {
  const leftIsMatrix = left.length >= 2;
  const rightIsMatrix = right.length >= 2;
  const rows = leftIsMatrix ? (left[0] ?? 1) : 1;
  const inner = (leftIsMatrix ? left[1] : left[0]) ?? 1;
  const columns = rightIsMatrix ? (right[1] ?? 1) : 1;
  let shape: number[] = [];
  if (leftIsMatrix && rightIsMatrix) shape = [rows, columns];
  else if (leftIsMatrix) shape = [rows];
  else if (rightIsMatrix) shape = [columns];
  return [shape, rows * inner * columns];
}

/** det, inv, lusolve, and division by or powers of a matrix: cubic time in the matrix side. */
export const cubicGuard: Guard = (args, meter, name) => {
  const side = largestSide(args);
  if (side > CUBIC_MAX_DIMENSION) {
    throw refuse(
      `${name} accepts matrices up to ${CUBIC_MAX_DIMENSION} x ${CUBIC_MAX_DIMENSION} (found a side of ${side})`,
    );
  }
  if (side > 0) meter.allocate(side * side, name);
};

/** norm(A, 2) of a matrix runs an eigenvalue iteration: only small matrices. */
export const normGuard: Guard = (args) => {
  const size = collectionSize(args[0]);
  if (size === undefined || size.length < 2 || Math.min(...size) < 2 || numberOf(args[1]) !== 2) return;
  const side = Math.max(...size);
  if (side > TWO_NORM_MAX_DIMENSION) {
    throw refuse(
      `norm(A, 2) accepts matrices up to ${TWO_NORM_MAX_DIMENSION} x ${TWO_NORM_MAX_DIMENSION} (found a side of ${side})`,
    );
  }
};

function largestSide(args: readonly unknown[]): number {
  let side = 0;
  for (const arg of args) {
    const size = collectionSize(arg);
    if (size !== undefined) side = Math.max(side, ...size);
  }
  return side;
}

/**
 * The value a user-defined function returns: `map` and friends keep every result, so collections
 * (and long strings) returned by callbacks draw from the evaluation's element budget.
 */
export const userFunctionResultGuard: Guard = (args, meter) => {
  const [value] = args;
  const count = typeof value === "string" ? Math.ceil(value.length / TEXT_CHARS_PER_ELEMENT) : countOf(value);
  if (count > 0) meter.allocate(count, "a user-defined function");
};
