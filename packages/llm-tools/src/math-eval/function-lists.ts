/**
 * Functions an expression can never call: they parse or evaluate more expressions, change the
 * shared mathjs instance (its units, types, configuration), or reach its internals.
 */
export const DISABLED_FUNCTIONS: readonly string[] = [
  "import",
  "createUnit",
  "evaluate",
  "parse",
  "compile",
  "simplify",
  "simplifyConstant",
  "simplifyCore",
  "derivative",
  "rationalize",
  "resolve",
  "leafCount",
  "symbolicEqual",
  "reviver",
  "replacer",
  "parser",
  "chain",
  "help",
  "config",
  "typed",
];

/**
 * The mathjs functions expressions may call; every other function of the mathjs namespace is
 * refused by name (eigenvalues, matrix square roots, ODE solvers and set operations among them:
 * their time cannot be bounded in proportion to their input). Constants are always available.
 */
export const ALLOWED_FUNCTIONS: ReadonlySet<string> = new Set(
  [
    // arithmetic
    "abs add cbrt ceil cube divide dotDivide dotMultiply dotPow exp expm1 fix floor gcd hypot invmod " +
      "lcm log log10 log1p log2 mod multiply norm nthRoot nthRoots pow round sign sqrt square subtract " +
      "unaryMinus unaryPlus xgcd",
    // bitwise
    "bitAnd bitNot bitOr bitXor leftShift rightArithShift rightLogShift",
    // combinatorics and probability
    "bellNumbers bernoulli catalan combinations combinationsWithRep composition erf factorial gamma " +
      "kldivergence lgamma multinomial permutations pickRandom random randomInt stirlingS2 zeta",
    // complex numbers
    "arg complex conj im re",
    // geometry
    "distance intersect",
    // logic
    "and not nullish or xor",
    // matrices
    "column concat count cross ctranspose det diag diff dot filter flatten forEach identity index inv " +
      "kron lsolve lusolve map matrix matrixFromColumns matrixFromRows ones range reshape resize row " +
      "size sort squeeze subset trace transpose usolve zeros",
    // relational
    "compare compareNatural compareText deepEqual equal equalText larger largerEq smaller smallerEq " +
      "unequal",
    // statistics
    "corr cumsum mad max mean median min mode prod quantileSeq std sum variance",
    // trigonometry
    "acos acosh acot acoth acsc acsch asec asech asin asinh atan atan2 atanh cos cosh cot coth csc " +
      "csch sec sech sin sinh tan tanh",
    // units
    "splitUnit to toBest unit",
    // numbers, types and formatting
    "bigint bignumber bin boolean clone den format fraction hasNumericValue hex isBounded isFinite " +
      "isInteger isNaN isNegative isNumeric isPositive isPrime isZero num number numeric oct " +
      "polynomialRoot print string typeOf",
  ].flatMap((group) => group.split(" ")),
);
