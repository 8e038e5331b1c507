import { BodyCodecError, decodeBody, encodeBody } from "@routekit/core/internal";
import { describe, expect, it } from "vitest";

function refusal(run: () => unknown): BodyCodecError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(BodyCodecError);
    return error as BodyCodecError;
  }
  throw new Error("expected the codec to refuse");
}

describe("encodeBody", () => {
  it("encodes strings as UTF-8 text, bytes as they are, undefined as no body and the rest as JSON", () => {
    expect(encodeBody("héllo")).toEqual({ content: "héllo", contentType: "text/plain; charset=utf-8" });
    const bytes = new Uint8Array([1, 2]);
    expect(encodeBody(bytes)).toEqual({ content: bytes, contentType: "application/octet-stream" });
    expect(encodeBody(undefined)).toEqual({ content: undefined, contentType: undefined });
    expect(encodeBody({ id: 7 })).toEqual({ content: '{"id":7}', contentType: "application/json" });
    expect(encodeBody(null)).toEqual({ content: "null", contentType: "application/json" });
  });

  it("takes the JSON content type, what null means and an overriding content type from its options", () => {
    const http = { jsonContentType: "application/json; charset=utf-8", nullIsEmpty: true };
    expect(encodeBody([1], http)).toEqual({ content: "[1]", contentType: "application/json; charset=utf-8" });
    expect(encodeBody(null, http)).toEqual({ content: undefined, contentType: undefined });
    expect(encodeBody("<a/>", { contentType: "application/xml" })).toEqual({
      content: "<a/>",
      contentType: "application/xml",
    });
    expect(refusal(() => encodeBody(undefined, { contentType: "application/json" })).reason).toBe(
      "no-json-form",
    );
  });

  it("refuses a value JSON cannot carry, saying what it found and what it expected", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const cycle = refusal(() => encodeBody(cyclic));
    expect(cycle.code).toBe("BODY_ENCODE_FAILED");
    expect(cycle.reason).toBe("json-failed");
    expect(cycle.message).toMatch(/^Cannot encode the message body as JSON: TypeError: Converting circular/);
    expect(cycle.retryable).toBe(false);
    expect(refusal(() => encodeBody(10n)).detail).toMatch(/BigInt/);
    const fn = refusal(() => encodeBody(() => 1));
    expect(fn.reason).toBe("no-json-form");
    expect(fn.message).toBe(
      "Cannot encode a message body of type function: expected an object, array, string, number, boolean, null or Buffer",
    );
  });
});

describe("decodeBody", () => {
  it("parses JSON types, reads text types in their charset and keeps other types as bytes", () => {
    expect(decodeBody(Buffer.from('{"a":[1]}'), "application/json")).toEqual({ a: [1] });
    expect(decodeBody(Buffer.from('{"a":1}'), "Application/Problem+JSON; charset=utf-8")).toEqual({ a: 1 });
    expect(decodeBody(Buffer.from("héllo"), "text/plain; charset=utf-8")).toBe("héllo");
    expect(decodeBody(Buffer.from([0xe9]), 'text/plain; charset="ISO-8859-1"')).toBe("é");
    expect(decodeBody(Buffer.from("hi", "utf16le"), "text/csv; charset=utf-16le")).toBe("hi");
    const bytes = Buffer.from([1, 2]);
    expect(decodeBody(bytes, "application/octet-stream")).toBe(bytes);
    expect(decodeBody(bytes, "application/xml")).toBe(bytes);
    expect(decodeBody(bytes, undefined)).toBe(bytes);
    expect(decodeBody(Buffer.alloc(0), undefined)).toBeUndefined();
    expect(decodeBody(Buffer.alloc(0), "text/plain")).toBe("");
  });

  it("reads what it encoded back as it was", () => {
    for (const body of [
      "text",
      "",
      { a: [1, null] },
      [1, "b"],
      42,
      true,
      null,
      Buffer.from([9]),
      undefined,
    ]) {
      const encoded = encodeBody(body);
      const content = typeof encoded.content === "string" ? Buffer.from(encoded.content) : encoded.content;
      expect(decodeBody(Buffer.from(content ?? []), encoded.contentType)).toEqual(body);
    }
  });

  it("follows its options for text types, other types, charsets and empty bodies", () => {
    const bytes = Buffer.from("<a/>");
    expect(decodeBody(bytes, "application/xml", { textTypes: "textual" })).toBe("<a/>");
    expect(decodeBody(bytes, undefined, { textTypes: "textual" })).toBe("<a/>");
    expect(decodeBody(bytes, "image/svg", { textTypes: "textual" })).toBe(bytes);
    expect(decodeBody(bytes, "image/svg", { otherTypes: "text" })).toBe("<a/>");
    expect(decodeBody(bytes, "application/octet-stream", { otherTypes: "text" })).toBe(bytes);
    expect(decodeBody(Buffer.from([0xc3, 0xa9]), "text/plain; charset=latin1", { charset: "utf-8" })).toBe(
      "é",
    );
    expect(decodeBody(Buffer.from("x"), "text/plain; charset=koi8-r", { charset: "utf-8" })).toBe("x");
    expect(decodeBody(Buffer.alloc(0), "application/json", { emptyIsUndefined: true })).toBeUndefined();
  });

  it("refuses invalid JSON under a JSON content type, naming the type, the size and the parser's finding", () => {
    const invalid = refusal(() => decodeBody(Buffer.from("{oops"), "application/json"));
    expect(invalid.code).toBe("BODY_DECODE_FAILED");
    expect(invalid.reason).toBe("json-invalid");
    expect(invalid.message).toMatch(
      /^The message has content type 'application\/json' but its body is not valid JSON \(5 bytes\): SyntaxError: .*position 1/,
    );
    expect(invalid.cause).toBeInstanceOf(SyntaxError);
    expect(refusal(() => decodeBody(Buffer.alloc(0), "application/json")).reason).toBe("json-invalid");
  });

  it("refuses JSON nested past maxJsonDepth before parsing it", () => {
    const deep = refusal(() => decodeBody(Buffer.from("[".repeat(100_000)), "application/json"));
    expect(deep.reason).toBe("json-too-deep");
    expect(deep.message).toBe(
      "The message has content type 'application/json' but its body is refused (100000 bytes): JSON nested more than 128 levels deep (at character 129)",
    );
    expect(decodeBody(Buffer.from("[[1]]"), "application/json", { maxJsonDepth: 2 })).toEqual([[1]]);
    expect(
      refusal(() => decodeBody(Buffer.from("[[1]]"), "application/json", { maxJsonDepth: 1 })).detail,
    ).toBe("JSON nested more than 1 levels deep (at character 2)");
  });

  it("refuses a charset it cannot read, saying which it found and which it reads", () => {
    const charset = refusal(() => decodeBody(Buffer.from("x"), "text/plain; charset=koi8-r"));
    expect(charset.reason).toBe("charset-unknown");
    expect(charset.message).toBe(
      "The message has content type 'text/plain; charset=koi8-r' with charset 'koi8-r': expected utf-8, us-ascii, iso-8859-1 or utf-16le",
    );
  });

  it("quotes at most a bounded part of a content type a sender chose", () => {
    const long = `text/plain; charset=${"x".repeat(50_000)}`;
    const charset = refusal(() => decodeBody(Buffer.from("x"), long));
    expect(charset.message.length).toBeLessThan(400);
    expect(charset.contentType).toMatch(/… \(50020 chars\)$/);
    const json = refusal(() => decodeBody(Buffer.from("{"), `application/json; ${"p=1;".repeat(10_000)}`));
    expect(json.message.length).toBeLessThan(400);
  });
});
