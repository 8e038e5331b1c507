import { refuse } from "./evaluation-meter.js";
import type { Guard } from "./guard.js";
import { elementsOf, exactBits, largestMagnitude, numberOf } from "./value-shapes.js";

/** Most loop steps of one combinatorics call (they loop over their integer arguments). */
export const MAX_LOOP_STEPS = 10_000;
/** Largest argument of stirlingS2 and bellNumbers (quadratic loops). */
export const MAX_QUADRATIC_ARGUMENT = 1000;
/** Largest argument of bernoulli. */
export const MAX_BERNOULLI_ARGUMENT = 2000;
/** Most trial-division steps of one isPrime call (the sum of the square roots of its arguments). */
export const MAX_PRIME_STEPS = 3_000_000;
/** Largest exact integer or fraction (bigint, Fraction) an operation may produce, in bits. */
export const MAX_EXACT_BITS = 131_072;

function loopGuard(steps: (args: readonly unknown[]) => number, limit = MAX_LOOP_STEPS): Guard {
  return (args, _meter, name) => {
    const count = steps(args);
    if (count > limit) throw refuse(`${name} would loop ${count} times, more than ${limit}`);
  };
}

const argument = (args: readonly unknown[], index: number): number => Math.abs(numberOf(args[index]) ?? 0);

/** permutations(n, k?) loops k (or n) times. */
export const permutationsGuard = loopGuard((args) =>
  args.length > 1 ? argument(args, 1) : argument(args, 0),
);
/** combinations(n, k) loops min(k, n - k) times. */
export const combinationsGuard = loopGuard((args) =>
  Math.min(argument(args, 1), Math.abs(argument(args, 0) - argument(args, 1))),
);
/** combinationsWithRep(n, k) loops min(k, n - 1) times. */
export const combinationsWithRepGuard = loopGuard((args) =>
  Math.min(argument(args, 1), Math.abs(argument(args, 0) - 1)),
);
/** catalan(n) loops n times. */
export const catalanGuard = loopGuard((args) => argument(args, 0));
/** composition(n, k) loops min(k - 1, n - k) times. */
export const compositionGuard = loopGuard((args) =>
  Math.min(Math.abs(argument(args, 1) - 1), Math.abs(argument(args, 0) - argument(args, 1))),
);
/** multinomial(a) loops sum(a) times. */
export const multinomialGuard = loopGuard((args) => sumOfMagnitudes(args[0]));
/** stirlingS2(n, k) and bellNumbers(n): quadratic in n. */
export const quadraticGuard = loopGuard((args) => argument(args, 0), MAX_QUADRATIC_ARGUMENT);
/** bernoulli(n). */
export const bernoulliGuard = loopGuard((args) => argument(args, 0), MAX_BERNOULLI_ARGUMENT);

/**
 * factorial, gamma: constant time for plain numbers, but a loop over n for BigNumber, bigint and
 * Fraction arguments (summed over the elements of a matrix).
 */
export const bigFactorialGuard = loopGuard((args) => sumOfMagnitudes(args[0], true));

/** isPrime tries divisors up to the square root of each argument. */
export const isPrimeGuard: Guard = (args, _meter, name) => {
  let steps = 0;
  for (const value of elementsOf(args[0])) steps += Math.sqrt(largestMagnitude(value));
  if (steps > MAX_PRIME_STEPS) {
    throw refuse(`${name} would try ${Math.ceil(steps)} divisors, more than ${MAX_PRIME_STEPS}`);
  }
};

/**
 * Growth of exact values (bigint, Fraction): a product or quotient has about the sum of its
 * operands' bits, a power the base's bits times the exponent, a left shift the bits plus the shift.
 */
export function exactGuard(kind: "sum" | "power" | "shift"): Guard {
  return (args, _meter, name) => {
    const base = exactBits(args[0]);
    let bits = 0;
    if (kind === "sum") {
      for (const arg of args) bits += exactBits(arg);
    } else if (base > 0) {
      const amount = Math.abs(numberOf(args[1]) ?? 0);
      bits = kind === "power" ? base * amount : base + amount;
    }
    if (bits > MAX_EXACT_BITS) {
      throw refuse(
        `${name} would produce an exact number of about ${bits} bits, more than ${MAX_EXACT_BITS}`,
      );
    }
  };
}

function sumOfMagnitudes(value: unknown, skipPlainNumbers = false): number {
  let sum = 0;
  for (const element of elementsOf(value)) {
    if (skipPlainNumbers && typeof element === "number") continue;
    sum += largestMagnitude(element);
  }
  return sum;
}
