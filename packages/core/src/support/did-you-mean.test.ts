import { describe, expect, it } from "vitest";
import { didYouMean, MAX_SUGGESTED_NAME_CHARS, nearestName } from "./did-you-mean.js";
import { truncateForMessage } from "./truncate-for-message.js";

describe("didYouMean", () => {
  it("suggests the nearest short name, case-insensitively, quoted or not", () => {
    expect(didYouMean("sise", ["size", "block"])).toBe(" (did you mean size?)");
    expect(didYouMean("ECKO", ["echo"], { quoted: true })).toBe(" (did you mean 'echo'?)");
    expect(didYouMean("zzzz", ["echo"])).toBe("");
  });

  it("compares no name longer than the bound, on either side", () => {
    const long = "a".repeat(MAX_SUGGESTED_NAME_CHARS + 1);
    expect(nearestName(long, [long])).toBeUndefined();
    expect(nearestName("abc", [`abc${"d".repeat(MAX_SUGGESTED_NAME_CHARS)}`])).toBeUndefined();
    expect(nearestName("a".repeat(MAX_SUGGESTED_NAME_CHARS), ["a".repeat(MAX_SUGGESTED_NAME_CHARS)])).toBe(
      "a".repeat(MAX_SUGGESTED_NAME_CHARS),
    );
  });

  it("reads a bounded number of candidates from an endless list", () => {
    let read = 0;
    function* endless(): Generator<string> {
      for (;;) {
        read += 1;
        yield `candidate${read}`;
      }
    }
    expect(nearestName("nothing-close", endless())).toBeUndefined();
    expect(read).toBeLessThanOrEqual(257);
  });
});

describe("truncateForMessage", () => {
  it("keeps short text and cuts long text, saying how long it was", () => {
    expect(truncateForMessage("short")).toBe("short");
    const cut = truncateForMessage("x".repeat(10_000));
    expect(cut).toBe(`${"x".repeat(120)}… (10000 chars)`);
    expect(truncateForMessage("abcdef", 3)).toBe("abc… (6 chars)");
  });

  it("never splits a surrogate pair", () => {
    const text = `${"a".repeat(119)}😀${"b".repeat(10)}`;
    expect(truncateForMessage(text)).toBe(`${"a".repeat(119)}… (${text.length} chars)`);
  });
});
