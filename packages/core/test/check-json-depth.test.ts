import { checkJsonDepth, DEFAULT_MAX_JSON_DEPTH, jsonDepthMessage } from "@routekit/core/internal";
import { describe, expect, it } from "vitest";

describe("checkJsonDepth", () => {
  it("measures arrays and objects, and says where the limit was first passed", () => {
    expect(checkJsonDepth('{"a":[1,{"b":[]}]}', 4)).toBeUndefined();
    expect(checkJsonDepth('{"a":[1,{"b":[]}]}', 3)).toEqual({ maxDepth: 3, position: 13 });
    expect(jsonDepthMessage({ maxDepth: 3, position: 13 })).toBe(
      "JSON nested more than 3 levels deep (at character 14)",
    );
    expect(
      checkJsonDepth(`${"[".repeat(DEFAULT_MAX_JSON_DEPTH)}${"]".repeat(DEFAULT_MAX_JSON_DEPTH)}`, 128),
    ).toBeUndefined();
    expect(checkJsonDepth("[[]][[]][[]]", 2)).toBeUndefined();
  });

  it("does not count brackets inside strings, escaped quotes and backslashes included", () => {
    expect(checkJsonDepth(JSON.stringify({ text: "[[[[{{{{" }), 1)).toBeUndefined();
    expect(checkJsonDepth(JSON.stringify({ text: '\\"[[[[' }), 1)).toBeUndefined();
    expect(checkJsonDepth(JSON.stringify(["\\", [[1]]]), 2)).toEqual({ maxDepth: 2, position: 7 });
    expect(checkJsonDepth(JSON.stringify(['"', [[1]]]), 2)).toEqual({ maxDepth: 2, position: 7 });
  });

  it("stays linear on a megabyte of nesting", () => {
    const text = `${"[".repeat(500_000)}${"]".repeat(500_000)}`;
    expect(checkJsonDepth(text, 500_000)).toBeUndefined();
    expect(checkJsonDepth(text, 128)?.position).toBe(128);
  });
});
