import { refuse } from "./evaluation-meter.js";
import type { Guard } from "./guard.js";
import { mathjs } from "./mathjs-module.js";
import { elementsOf, numberOf } from "./value-shapes.js";

/** Longest string a text function may produce. */
export const MAX_STRING_CHARS = 1_048_576;
/** Largest precision (significant digits) format and print accept. */
export const MAX_FORMAT_PRECISION = 1000;
/** Largest decimal exponent of a BigNumber that may be written out (fixed notation writes every digit). */
export const MAX_FORMATTED_EXPONENT = 10_000;
/** Largest word size of bin, oct and hex. */
export const MAX_WORD_SIZE = 4096;

/** format(value, precision | options), string(value): bounded precision and BigNumber size. */
export const formatGuard: Guard = (args, _meter, name) => {
  checkPrecision(args[1], name);
  checkBigNumbers(args[0], name);
};

/** bin, oct, hex (value, wordSize?). */
export const radixGuard: Guard = (args, _meter, name) => {
  const wordSize = numberOf(args[1]);
  if (wordSize !== undefined && Math.abs(wordSize) > MAX_WORD_SIZE) {
    throw refuse(`${name} accepts a word size up to ${MAX_WORD_SIZE} (found ${wordSize})`);
  }
  checkBigNumbers(args[0], name);
};

/** print(template, values, precision | options): every placeholder may insert all of the values' text. */
export const printGuard: Guard = (args, _meter, name) => {
  const template = typeof args[0] === "string" ? args[0] : "";
  const placeholders = template.split("$").length - 1;
  const estimate = template.length + placeholders * textSize(args[1]);
  if (estimate > MAX_STRING_CHARS) {
    throw refuse(`${name} could produce ${estimate} characters, more than ${MAX_STRING_CHARS}`);
  }
  checkPrecision(args[2], name);
  checkBigNumbers(args[1], name);
};

/** concat of strings: the lengths add up. */
export const stringConcatGuard: Guard = (args, _meter, name) => {
  let length = 0;
  for (const arg of args) if (typeof arg === "string") length += arg.length;
  if (length > MAX_STRING_CHARS) {
    throw refuse(`${name} would produce ${length} characters, more than ${MAX_STRING_CHARS}`);
  }
};

function checkPrecision(option: unknown, name: string): void {
  const precision = numberOf(option) ?? numberOf((option as { precision?: unknown } | undefined)?.precision);
  if (precision !== undefined && precision > MAX_FORMAT_PRECISION) {
    throw refuse(`${name} accepts a precision up to ${MAX_FORMAT_PRECISION} (found ${precision})`);
  }
}

function checkBigNumbers(value: unknown, name: string): void {
  for (const element of elementsOf(value)) {
    if (mathjs().isBigNumber(element) && Math.abs(element.e) > MAX_FORMATTED_EXPONENT) {
      throw refuse(
        `${name} accepts BigNumbers with a decimal exponent up to ${MAX_FORMATTED_EXPONENT} (found ${element.e})`,
      );
    }
  }
}

/** A generous estimate of the text of a value: strings by length, anything else by its parts. */
function textSize(value: unknown): number {
  if (typeof value === "string") return value.length;
  if (typeof value === "object" && value !== null) {
    let size = 2;
    for (const part of Array.isArray(value) ? value : Object.values(value)) size += textSize(part) + 1;
    return size;
  }
  return 32;
}
