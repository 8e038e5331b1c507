import { describe, expect, it } from "vitest";
import { loadFactor, MAX_LOAD_FACTOR, scaledMs } from "../src/index.js";

describe("time bounds scaled to the machine's load", () => {
  it("never tightens a bound, stretches it at most MAX_LOAD_FACTOR times, and never shrinks between checks", () => {
    const first = loadFactor();
    expect(first).toBeGreaterThanOrEqual(1);
    expect(first).toBeLessThanOrEqual(MAX_LOAD_FACTOR);
    expect(loadFactor()).toBeGreaterThanOrEqual(first);
    const bound = scaledMs(100);
    expect(bound).toBeGreaterThanOrEqual(100 * first);
    expect(bound).toBeLessThanOrEqual(100 * MAX_LOAD_FACTOR);
  });
});
