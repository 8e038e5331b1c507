import { allOf, COLLECTION_OR_EXACT_SIGNATURES, type Guard, type GuardRule } from "./guard.js";
import {
  cubicGuard,
  diagGuard,
  dimensionsGuard,
  elementwiseGuard,
  identityGuard,
  indexGuard,
  kronGuard,
  matrixGuard,
  multiplyGuard,
  normGuard,
  nthRootsGuard,
  pickRandomGuard,
  rangeGuard,
  resizeGuard,
  sizeArgumentGuard,
  sumOfPartsGuard,
} from "./matrix-guards.js";
import {
  bernoulliGuard,
  bigFactorialGuard,
  catalanGuard,
  combinationsGuard,
  combinationsWithRepGuard,
  compositionGuard,
  exactGuard,
  isPrimeGuard,
  multinomialGuard,
  permutationsGuard,
  quadraticGuard,
} from "./number-guards.js";
import { formatGuard, printGuard, radixGuard, stringConcatGuard } from "./text-guards.js";
import { collectionSize } from "./value-shapes.js";

const productGuard = allOf(elementwiseGuard, exactGuard("sum"));

/** divide(a, b): by a matrix it is a multiplication by the inverse (cubic); else element-wise. */
const divideGuard: Guard = (args, meter, name) =>
  (collectionSize(args[1]) === undefined ? productGuard : cubicGuard)(args, meter, name);

/** pow(a, b): a matrix power repeats matrix products (cubic); else exact growth is bounded. */
const powGuard: Guard = (args, meter, name) =>
  (collectionSize(args[0]) === undefined ? exactGuard("power") : cubicGuard)(args, meter, name);

function elementwise(check: Guard): GuardRule {
  return { check, signatures: COLLECTION_OR_EXACT_SIGNATURES };
}

/**
 * The checks run before these functions when an expression calls them (directly or through an
 * operator such as `+` or `A[i] = x`). Functions not listed either cost time and memory in
 * proportion to their already-bounded inputs, or are not available to expressions at all.
 */
export const FUNCTION_GUARDS: Readonly<Record<string, GuardRule>> = {
  zeros: { check: dimensionsGuard },
  ones: { check: dimensionsGuard },
  identity: { check: identityGuard },
  random: { check: sizeArgumentGuard },
  randomInt: { check: sizeArgumentGuard },
  resize: { check: resizeGuard },
  range: { check: rangeGuard },
  pickRandom: { check: pickRandomGuard },
  diag: { check: diagGuard },
  kron: { check: kronGuard },
  concat: { check: allOf(sumOfPartsGuard, stringConcatGuard) },
  matrixFromRows: { check: sumOfPartsGuard },
  matrixFromColumns: { check: sumOfPartsGuard },
  matrix: { check: matrixGuard },
  index: { check: indexGuard },
  nthRoots: { check: nthRootsGuard },
  map: elementwise(elementwiseGuard),
  add: elementwise(productGuard),
  subtract: elementwise(productGuard),
  multiply: elementwise(allOf(multiplyGuard, exactGuard("sum"))),
  divide: elementwise(divideGuard),
  pow: elementwise(powGuard),
  dotMultiply: elementwise(productGuard),
  dotDivide: elementwise(productGuard),
  dotPow: elementwise(allOf(elementwiseGuard, exactGuard("power"))),
  lcm: elementwise(productGuard),
  leftShift: elementwise(allOf(elementwiseGuard, exactGuard("shift"))),
  mod: elementwise(elementwiseGuard),
  gcd: elementwise(elementwiseGuard),
  nthRoot: elementwise(elementwiseGuard),
  atan2: elementwise(elementwiseGuard),
  to: elementwise(elementwiseGuard),
  equal: elementwise(elementwiseGuard),
  unequal: elementwise(elementwiseGuard),
  larger: elementwise(elementwiseGuard),
  largerEq: elementwise(elementwiseGuard),
  smaller: elementwise(elementwiseGuard),
  smallerEq: elementwise(elementwiseGuard),
  compare: elementwise(elementwiseGuard),
  compareNatural: elementwise(elementwiseGuard),
  compareText: elementwise(elementwiseGuard),
  equalText: elementwise(elementwiseGuard),
  xor: elementwise(elementwiseGuard),
  bitXor: elementwise(elementwiseGuard),
  rightArithShift: elementwise(elementwiseGuard),
  rightLogShift: elementwise(elementwiseGuard),
  det: { check: cubicGuard },
  inv: { check: cubicGuard },
  lusolve: { check: cubicGuard },
  norm: { check: normGuard },
  factorial: { check: bigFactorialGuard },
  gamma: { check: bigFactorialGuard },
  permutations: { check: permutationsGuard },
  combinations: { check: combinationsGuard },
  combinationsWithRep: { check: combinationsWithRepGuard },
  catalan: { check: catalanGuard },
  composition: { check: compositionGuard },
  multinomial: { check: multinomialGuard },
  stirlingS2: { check: quadraticGuard },
  bellNumbers: { check: quadraticGuard },
  bernoulli: { check: bernoulliGuard },
  isPrime: { check: isPrimeGuard },
  format: { check: formatGuard },
  string: { check: formatGuard },
  bin: { check: radixGuard },
  oct: { check: radixGuard },
  hex: { check: radixGuard },
  print: { check: printGuard },
};
