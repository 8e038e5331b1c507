import { describe, expect, it } from "vitest";
import { checkOptions, type OptionChecks } from "./check-options.js";

class ExampleError extends Error {
  constructor(
    message: string,
    readonly option: string,
  ) {
    super(message);
  }
}

const site = {
  where: "example 'demo'",
  error: (message: string, option: string) => new ExampleError(message, option),
};

const CHECKS = {
  name: { type: "string", required: true, pattern: /^[a-z]+$/, expected: "lower-case letters" },
  timeoutMs: { type: "integer", min: 1, max: 60_000, unit: "milliseconds", default: 30_000 },
  mode: { type: "enum", values: ["json", "text"], default: "json" },
  url: { type: "uri", schemes: ["http", "https"] },
  onEvent: { type: "function" },
  tls: { type: "object", options: { ca: { type: "string" }, verify: { type: "boolean", default: true } } },
  tags: { type: "list", items: { type: "string", nonEmpty: true } },
  headers: { type: "record", values: { type: "string" } },
} as const satisfies OptionChecks;

function failure(value: unknown): ExampleError {
  try {
    checkOptions(CHECKS, value, site);
  } catch (error) {
    if (error instanceof ExampleError) return error;
    throw error;
  }
  throw new Error("expected the options to be refused");
}

describe("checkOptions", () => {
  it("applies defaults and keeps what was given, nested objects included", () => {
    const checked = checkOptions(CHECKS, { name: "demo", tls: { ca: "pem" }, tags: ["a"] }, site);
    expect(checked).toEqual({
      name: "demo",
      timeoutMs: 30_000,
      mode: "json",
      tls: { ca: "pem", verify: true },
      tags: ["a"],
    });
  });

  it("names the place, the option, what was expected and what was found", () => {
    expect(failure({ name: "demo", timeoutMs: 0 }).message).toBe(
      "example 'demo': option 'timeoutMs' must be a whole number of milliseconds from 1 to 60000 (found number 0)",
    );
    expect(failure({ name: "Demo" }).message).toBe(
      "example 'demo': option 'name' must be lower-case letters (found string \"Demo\")",
    );
    expect(failure({ name: "demo", mode: "xml" }).message).toContain(
      `option 'mode' must be one of "json", "text"`,
    );
    expect(failure({ name: "demo", url: "ftp://host/file" }).message).toContain(
      "option 'url' must be an absolute http or https URI (found string \"ftp://host/file\")",
    );
    expect(failure({ name: "demo", onEvent: "handler" }).message).toContain(
      "option 'onEvent' must be a function",
    );
    expect(failure({}).message).toContain(
      "option 'name' must be given: lower-case letters (found undefined)",
    );
  });

  it("gives the path of a nested option, a list item and a record entry", () => {
    const nested = failure({ name: "demo", tls: { verify: "yes" } });
    expect(nested.option).toBe("tls.verify");
    expect(nested.message).toContain("option 'tls.verify' must be true or false (found string \"yes\")");
    expect(failure({ name: "demo", tags: ["a", ""] }).option).toBe("tags[1]");
    expect(failure({ name: "demo", headers: { accept: 1 } }).option).toBe("headers['accept']");
  });

  it("refuses an unknown option with the nearest known name, nested ones included", () => {
    expect(failure({ name: "demo", timeoutMS: 5 }).message).toBe(
      "example 'demo': unknown option 'timeoutMS' (did you mean 'timeoutMs'?) (expected one of name, timeoutMs, mode, url, onEvent, tls, tags, headers)",
    );
    expect(failure({ name: "demo", tls: { verfy: false } }).message).toContain(
      "unknown option 'tls.verfy' (did you mean 'verify'?)",
    );
  });

  it("never shows a wrong credential, only its kind", () => {
    const secretChecks = { password: { type: "string", secret: true } } as const satisfies OptionChecks;
    let message = "";
    try {
      checkOptions(secretChecks, { password: 123456789 }, site);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe("example 'demo': option 'password' must be a string (found a number (not shown))");
  });

  it("refuses options that are not an object", () => {
    expect(failure(null).message).toBe("example 'demo': options must be an object (found null)");
    expect(failure([1]).message).toBe("example 'demo': options must be an object (found an array of 1)");
  });
});
