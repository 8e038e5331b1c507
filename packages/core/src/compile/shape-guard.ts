import { RoutekitError } from "../errors/errors.js";
import type { StepDefinition } from "../model/step-definition.js";
import type { StepShape } from "../model/step-shape.js";

/** Holds one step's compile function to the shape its verb declares (see `shapeGuard`). */
export interface ShapeGuard {
  /** Before a nested block is compiled under `path`: refuses a block the shape does not declare. */
  block(path: string): void;
  /** Before the rest of the block is taken: refuses it when the shape does not take it. */
  rest(): void;
  /** After the step compiled: true when it took the rest of its block (the block ends with it). */
  done(): boolean;
}

/**
 * What the compiler reads of a step's shape, and how it holds the step's compile function to it:
 * the rest of the block goes to a step exactly when its shape says it takes it, and a nested block
 * is compiled only under a path its shape declares. So what `describe()` reports from the shape is
 * what runs; a verb whose shape says otherwise fails when its route is added, naming the verb.
 */
export function shapeGuard(
  routeId: string,
  label: string,
  shape: StepShape,
  step: StepDefinition,
): ShapeGuard {
  const takesRest = shape.takesRestOfBlock?.(step) === true;
  let restTaken = false;
  let paths: Set<string> | undefined;
  const mismatch = (what: string): RoutekitError =>
    new RoutekitError(
      "ROUTE_INVALID",
      `Route '${routeId}' step ${label}: ${what}; the '${step.type}' verb's shape and its compile function disagree`,
    );
  return {
    block(path) {
      paths ??= new Set(
        [...(shape.blocks?.(step) ?? []), ...(shape.innerBlocks?.(step) ?? [])].map(
          (block) => label + block.suffix,
        ),
      );
      if (!paths.has(path))
        throw mismatch(`it compiled a block at '${path}' that its shape does not declare`);
    },
    rest() {
      if (!takesRest) throw mismatch("it took the rest of its block, which its shape says it does not");
      restTaken = true;
    },
    done() {
      if (takesRest && !restTaken)
        throw mismatch("its shape says it takes the rest of its block, it did not");
      return takesRest;
    },
  };
}
