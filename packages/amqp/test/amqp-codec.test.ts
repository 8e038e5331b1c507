import { AmqpError, decodeBody, encodeBody, fromAmqpHeaders, toAmqpHeaders } from "@routekit/amqp";
import { describe, expect, it } from "vitest";

describe("encodeBody", () => {
  it("encodes objects as JSON, strings as text and Buffers as bytes", () => {
    const json = encodeBody({ id: 7, tags: ["a"] });
    expect(json.contentType).toBe("application/json");
    expect(json.content.toString()).toBe('{"id":7,"tags":["a"]}');

    const text = encodeBody("héllo");
    expect(text.contentType).toBe("text/plain; charset=utf-8");
    expect(text.content.toString("utf8")).toBe("héllo");

    const bytes = Buffer.from([0, 1, 2]);
    expect(encodeBody(bytes)).toEqual({ content: bytes, contentType: "application/octet-stream" });
    expect(encodeBody(new Uint8Array([3, 4])).content).toEqual(Buffer.from([3, 4]));
    expect(encodeBody(42).content.toString()).toBe("42");
    expect(encodeBody(null).content.toString()).toBe("null");
    expect(encodeBody(undefined)).toEqual({ content: Buffer.alloc(0), contentType: undefined });
  });

  it("sends the configured content type", () => {
    expect(encodeBody("<a/>", "application/xml")).toEqual({
      content: Buffer.from("<a/>"),
      contentType: "application/xml",
    });
    expect(encodeBody({ a: 1 }, "application/vnd.test+json").content.toString()).toBe('{"a":1}');
  });

  it("refuses bodies JSON cannot carry, saying what it found", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => encodeBody(cyclic)).toThrow(/Cannot encode the message body as JSON/);
    expect(() => encodeBody(() => 1)).toThrow(/of type function: expected an object/);
    expect(() => encodeBody(10n)).toThrow(AmqpError);
  });
});

describe("decodeBody", () => {
  it("decodes by content type", () => {
    expect(decodeBody(Buffer.from('{"a":[1,2]}'), "application/json")).toEqual({ a: [1, 2] });
    expect(decodeBody(Buffer.from('{"a":1}'), "application/problem+json; charset=utf-8")).toEqual({ a: 1 });
    expect(decodeBody(Buffer.from("héllo"), "text/plain; charset=utf-8")).toBe("héllo");
    expect(decodeBody(Buffer.from([0xe9]), "text/plain; charset=ISO-8859-1")).toBe("é");
    const bytes = Buffer.from([1, 2]);
    expect(decodeBody(bytes, "application/octet-stream")).toBe(bytes);
    expect(decodeBody(bytes, undefined)).toBe(bytes);
    expect(decodeBody(Buffer.alloc(0), undefined)).toBeUndefined();
  });

  it("round-trips what encodeBody produced", () => {
    for (const body of [
      { nested: { list: [1, "two", null] } },
      "text",
      3.5,
      true,
      null,
      Buffer.from("raw"),
    ]) {
      const encoded = encodeBody(body);
      expect(decodeBody(encoded.content, encoded.contentType)).toEqual(body);
    }
  });

  it("fails clearly on invalid JSON and unknown charsets", () => {
    expect(() => decodeBody(Buffer.from("{oops"), "application/json")).toThrow(
      /content type 'application\/json' but its body is not valid JSON \(5 bytes\)/,
    );
    try {
      decodeBody(Buffer.from("x"), "text/plain; charset=koi8-r");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AmqpError);
      expect((error as AmqpError).code).toBe("DECODE_FAILED");
      expect((error as AmqpError).message).toMatch(/charset 'koi8-r': expected utf-8/);
    }
  });
});

describe("toAmqpHeaders / fromAmqpHeaders", () => {
  it("keeps JSON-safe values and leaves out the rest", () => {
    const when = new Date("2025-01-02T03:04:05.000Z");
    const headers = toAmqpHeaders({
      tenant: "acme",
      count: 3,
      ratio: 0.5,
      flag: false,
      none: null,
      nested: { list: [1, "x", () => 0], deep: { ok: true } },
      when,
      bytes: Buffer.from("b"),
      fn: () => 1,
      symbol: Symbol("s"),
      big: 1n,
      missing: undefined,
      nan: Number.NaN,
    });
    expect(headers).toEqual({
      tenant: "acme",
      count: 3,
      ratio: 0.5,
      flag: false,
      none: null,
      nested: { list: [1, "x", null], deep: { ok: true } },
      when: "2025-01-02T03:04:05.000Z",
      bytes: Buffer.from("b"),
    });
  });

  it("never sends broker-owned headers or the redelivery counter, but receives them all", () => {
    const headers = toAmqpHeaders({
      "x-death": [],
      "x-first-death-queue": "q",
      "x-delivery-count": 4,
      "x-routekit-redeliveries": 2,
      keep: 1,
    });
    expect(headers).toEqual({ keep: 1 });
    expect(fromAmqpHeaders({ "x-routekit-redeliveries": 2, "x-routekit-error": "E", a: "b" })).toEqual({
      "x-routekit-redeliveries": 2,
      "x-routekit-error": "E",
      a: "b",
    });
    expect(fromAmqpHeaders(undefined)).toEqual({});
  });

  it("refuses cyclic headers and over-long names", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.again = cyclic;
    expect(() => toAmqpHeaders({ cyclic })).toThrow(
      /Header 'cyclic(\.again)+' is nested deeper than 32 levels/,
    );
    expect(() => toAmqpHeaders({ ["n".repeat(256)]: 1 })).toThrow(/longer than 255 bytes/);
  });
});
