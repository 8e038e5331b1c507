import { describe, expect, it } from "vitest";
import { createRedactor, REDACTED, redactSecrets } from "../src/internal.js";

const SECRET = "sk-Live_9f/3A+b=Zq";

function base64Of(text: string): string {
  return Buffer.from(text, "utf8").toString("base64");
}

describe("redactSecrets", () => {
  it.each([
    ["raw", SECRET],
    ["lower case", SECRET.toLowerCase()],
    ["upper case", SECRET.toUpperCase()],
    ["JSON-escaped", JSON.stringify(SECRET).slice(1, -1)],
    ["JSON-escaped with \\/", JSON.stringify(SECRET).slice(1, -1).replaceAll("/", "\\/")],
    ["JSON inside JSON", JSON.stringify({ key: SECRET })],
    ["\\u-escaped", SECRET.replace("/", "\\u002f")],
    [
      "any letter \\u-escaped, as a server may (sk-\\u004cive)",
      SECRET.replace("L", "\\u004c").replace("Z", "\\u005A"),
    ],
    [
      "every character \\u-escaped",
      [...SECRET].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join(""),
    ],
    ["mixed \\/ and \\u escapes", SECRET.replace("/", "\\/").replace("k", "\\u006b")],
    ["URL component", encodeURIComponent(SECRET)],
    ["URL component, lower-case hex", encodeURIComponent(SECRET).toLowerCase()],
    ["form-encoded", new URLSearchParams({ key: SECRET }).toString()],
    ["base64", base64Of(SECRET)],
    ["base64 unpadded", base64Of(SECRET).replace(/=+$/, "")],
    ["base64url", Buffer.from(SECRET).toString("base64url")],
    ["base64 of the lower-cased key", base64Of(SECRET.toLowerCase())],
    ["Basic auth (offset 0)", `Basic ${base64Of(`${SECRET}:x`)}`],
    ["Basic auth (offset 1)", `Basic ${base64Of(`u:${SECRET}`)}`],
    ["Basic auth (offset 2)", `Basic ${base64Of(`us:${SECRET}`)}`],
    ["Basic auth (offset 3)", `Basic ${base64Of(`use:${SECRET}`)}`],
    ["hex", Buffer.from(SECRET).toString("hex")],
    ["hex upper case", Buffer.from(SECRET).toString("hex").toUpperCase()],
  ])("removes the %s form", (_form, encoded) => {
    const text = `error: got ${encoded} back`;
    const redacted = redactSecrets(text, [SECRET]);
    expect(redacted).toContain(REDACTED);
    expect(redacted).not.toContain(encoded);
    expect(redacted.startsWith("error: got ")).toBe(true);
    // What is left never holds a run of the secret's characters long enough to matter.
    expect(redacted.toLowerCase()).not.toContain("9f/3a+b");
  });

  it("keeps text without secrets as it is, ignores empty secrets, and redacts short ones only as written", () => {
    expect(redactSecrets("nothing here", [SECRET, "", undefined])).toBe("nothing here");
    expect(redactSecrets("pin 1234 or PIN", ["1234", "pin"])).toBe(`${REDACTED} ${REDACTED} or PIN`);
  });

  it("redacts several secrets and overlapping copies", () => {
    const other = "tvly-ABCDEF123456";
    const text = `${SECRET}${SECRET} and ${other.toLowerCase()} in ${encodeURIComponent(other)}`;
    expect(redactSecrets(text, [SECRET, other])).toBe(
      `${REDACTED}${REDACTED} and ${REDACTED} in ${REDACTED}`,
    );
  });

  it("handles non-ASCII secrets in JSON \\u escapes and percent encoding", () => {
    const secret = "clé-secrète-✓";
    const unicode = JSON.stringify(secret).slice(1, -1);
    const escaped = [...secret]
      .map((character) =>
        character.charCodeAt(0) > 0x7e
          ? `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`
          : character,
      )
      .join("");
    for (const form of [unicode, escaped, encodeURIComponent(secret)]) {
      expect(redactSecrets(`x ${form} y`, [secret])).toBe(`x ${REDACTED} y`);
    }
  });

  it("createRedactor compiles once and behaves the same", () => {
    const redact = createRedactor([SECRET]);
    expect(redact(`a ${SECRET.toUpperCase()} b`)).toBe(`a ${REDACTED} b`);
    expect(redact("clean")).toBe("clean");
    expect(createRedactor([])("clean")).toBe("clean");
  });
});

describe("redactSecrets over JSON escapes", () => {
  it("replaces exactly the escaped text of a secret and keeps its neighbours", () => {
    const echoed = `{"auth":"Bearer ${SECRET.replace("/", "\\/").replace("L", "\\u004C")}","n":"a\\nb"}`;
    expect(redactSecrets(echoed, [SECRET])).toBe(`{"auth":"Bearer ${REDACTED}","n":"a\\nb"}`);
  });

  it("keeps a long run of backslashes as written and still finds a secret after it", () => {
    const text = `${"\\".repeat(200_000)}u004${SECRET}`;
    expect(redactSecrets(text, [SECRET])).toBe(`${"\\".repeat(200_000)}u004${REDACTED}`);
  });
});
