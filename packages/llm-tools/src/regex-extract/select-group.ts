import { ToolInputError } from "../errors.js";
import { describe } from "../tool-input.js";
import type { CompiledPattern } from "./compile-pattern.js";

const TOOL_NAME = "regex_extract";

/**
 * Resolves the `group` input against a pattern: omitted, "" and "0" select the whole match; a
 * number or a numeric string selects a numbered group; any other string a named group. A group the
 * pattern does not have is an error naming the group and listing the ones it has.
 */
export function selectGroup(group: unknown, pattern: CompiledPattern): number | string {
  if (group === undefined || group === null || group === "") return 0;
  if (typeof group === "string" && /^\d+$/.test(group.trim())) {
    return numberedGroup(Number(group.trim()), pattern);
  }
  if (typeof group === "number") {
    if (!Number.isInteger(group) || group < 0) {
      throw groupError(`must be a non-negative integer or a group name (found ${describe(group)})`);
    }
    return numberedGroup(group, pattern);
  }
  if (typeof group !== "string") {
    throw groupError(`must be a group number or a group name (found ${describe(group)})`);
  }
  if (!pattern.groupNames.includes(group)) {
    const known = pattern.groupNames.length === 0 ? "none" : pattern.groupNames.join(", ");
    throw groupError(
      `names capture group '${group}', which the pattern does not have (named groups: ${known})`,
    );
  }
  return group;
}

function numberedGroup(index: number, pattern: CompiledPattern): number {
  if (index > pattern.groupCount) {
    throw groupError(`is ${index}, but the pattern has only ${pattern.groupCount} capture group(s)`);
  }
  return index;
}

function groupError(reason: string): ToolInputError {
  return new ToolInputError(TOOL_NAME, `${TOOL_NAME}: key 'group' ${reason}`, "group");
}
