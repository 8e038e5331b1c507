import { describe, expect, it } from "vitest";
import {
  isStandardSchema,
  LlmError,
  type StandardSchemaV1,
  type StandardSchemaV1Issue,
  toJsonSchema,
  toTool,
  validateToolArguments,
  validateToolArgumentsAsync,
} from "../src/tool-contract.js";

const CITIES = ["Oslo", "Lima"];

const citySchema = {
  type: "object",
  properties: { city: { type: "string" }, days: { type: "integer" } },
  required: ["city"],
};

/** Checks like a zod object would: known city, days defaulting to 1, unknown keys stripped. */
function checkCity(value: unknown) {
  const input = value as Record<string, unknown>;
  const issues: StandardSchemaV1Issue[] = [];
  if (!CITIES.includes(String(input.city))) issues.push({ message: "must be a known city", path: ["city"] });
  if (input.days !== undefined && Number(input.days) > 7) {
    issues.push({ message: "must be at most 7", path: [{ key: "days" }] });
  }
  if (issues.length > 0) return { issues };
  return { value: { city: String(input.city).toUpperCase(), days: input.days ?? 1 } };
}

/** A Standard Schema built by hand, carrying its JSON Schema in a `jsonSchema` property. */
function handmade(validate: (value: unknown) => unknown = checkCity) {
  return {
    "~standard": { version: 1 as const, vendor: "handmade", validate },
    jsonSchema: citySchema,
  } as unknown as StandardSchemaV1;
}

function thrownBy(action: () => unknown): LlmError {
  try {
    action();
  } catch (error) {
    if (error instanceof LlmError) return error;
    throw error;
  }
  throw new Error("expected an LlmError, but nothing was thrown");
}

describe("toJsonSchema", () => {
  it("returns a JSON Schema as given", () => {
    expect(toJsonSchema(citySchema)).toBe(citySchema);
  });

  it("reads a `jsonSchema` property", () => {
    expect(toJsonSchema(handmade())).toBe(citySchema);
  });

  it("asks Standard JSON Schema (`~standard.jsonSchema.input`) for a 2020-12 schema", () => {
    const targets: unknown[] = [];
    const schema = {
      "~standard": {
        version: 1,
        vendor: "valibot",
        validate: checkCity,
        jsonSchema: {
          input: (options: unknown) => {
            targets.push(options);
            return { $schema: "https://json-schema.org/draft/2020-12/schema", ...citySchema };
          },
        },
      },
    } as unknown as StandardSchemaV1;
    expect(toJsonSchema(schema)).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      ...citySchema,
    });
    expect(targets).toEqual([{ target: "draft-2020-12" }]);
  });

  it("calls a zod-style toJSONSchema() method on the schema itself", () => {
    const schema = {
      "~standard": { version: 1, vendor: "zod", validate: checkCity },
      toJSONSchema(this: StandardSchemaV1) {
        return { ...citySchema, additionalProperties: false, title: this["~standard"].vendor };
      },
    } as unknown as StandardSchemaV1;
    expect(toJsonSchema(schema)).toEqual({ ...citySchema, additionalProperties: false, title: "zod" });
  });

  it("refuses a Standard Schema it cannot convert, saying to pass a JSON Schema", () => {
    const opaque = { "~standard": { version: 1, vendor: "opaque", validate: checkCity } } as StandardSchemaV1;
    const error = thrownBy(() => toJsonSchema(opaque, "weather"));
    expect(error.code).toBe("TOOL_INVALID");
    expect(error.message).toBe(
      "the input schema of tool 'weather' is a Standard Schema (vendor \"opaque\") that cannot describe itself as JSON Schema " +
        "(no ~standard.jsonSchema, toJSONSchema() or jsonSchema): pass a JSON Schema instead",
    );
  });

  it("reports a conversion that throws, keeping the cause", () => {
    const failing = {
      "~standard": { version: 1, vendor: "zod", validate: checkCity },
      toJSONSchema() {
        throw new Error("Transforms cannot be represented in JSON Schema");
      },
    } as unknown as StandardSchemaV1;
    const error = thrownBy(() => toJsonSchema(failing));
    expect(error.message).toBe(
      'the input schema (Standard Schema, vendor "zod") could not be converted to JSON Schema: ' +
        "Transforms cannot be represented in JSON Schema; pass a JSON Schema instead",
    );
    expect(error.cause).toBeInstanceOf(Error);
  });

  it("refuses a conversion that does not give an object", () => {
    const odd = { "~standard": { version: 1, vendor: "odd", validate: checkCity }, jsonSchema: "object" };
    expect(thrownBy(() => toJsonSchema(odd as unknown as StandardSchemaV1)).message).toBe(
      'the input schema (Standard Schema, vendor "odd") converted to string, not a JSON Schema object',
    );
  });

  it("recognises Standard Schemas", () => {
    expect(isStandardSchema(handmade())).toBe(true);
    expect(isStandardSchema(citySchema)).toBe(false);
    expect(isStandardSchema({ "~standard": {} })).toBe(false);
    expect(isStandardSchema(null)).toBe(false);
  });
});

describe("a tool made from a Standard Schema", () => {
  it("converts the schema once and keeps it as the tool's input schema", () => {
    const tool = toTool({ name: "weather", inputSchema: handmade(), execute: () => "" });
    expect(tool.inputSchema).toBe(citySchema);
  });

  it("validates with the Standard Schema's own validate, listing issue paths", () => {
    const tool = toTool({ name: "weather", inputSchema: handmade(), execute: () => "" });
    expect(validateToolArguments(tool, { city: "Paris", days: 9 })).toMatchObject({
      ok: false,
      message: "invalid arguments for tool 'weather': /city must be a known city; /days must be at most 7",
    });
    expect(validateToolArguments(tool, { city: "Oslo" })).toEqual({
      ok: true,
      value: { city: "OSLO", days: 1 },
    });
  });

  it("checks the JSON Schema first, so type errors read like ajv's", () => {
    const tool = toTool({ name: "weather", inputSchema: handmade(), execute: () => "" });
    expect(validateToolArguments(tool, { days: "two" })).toMatchObject({
      ok: false,
      message:
        "invalid arguments for tool 'weather': must have required property 'city'; /days must be integer",
    });
  });

  it("hands the handler the value the Standard Schema produced", async () => {
    const tool = toTool({
      name: "weather",
      inputSchema: handmade(),
      execute: (args: Record<string, unknown>) => `${args.city} for ${args.days} day(s)`,
    });
    expect(await tool.execute({ city: "Lima" })).toEqual({ output: "LIMA for 1 day(s)", isError: false });
    expect(await tool.execute({ city: "Rome" })).toEqual({
      output: "invalid arguments for tool 'weather': /city must be a known city",
      isError: true,
    });
  });

  it("runs a transforming schema once when execute gets the value validation produced", async () => {
    const calls: unknown[] = [];
    const tool = toTool({
      name: "weather",
      inputSchema: handmade((value) => {
        calls.push(value);
        return checkCity(value);
      }),
      execute: (args: Record<string, unknown>) => String(args.city),
    });
    const validated = await validateToolArgumentsAsync(tool, { city: "Oslo" });
    expect(validated).toEqual({ ok: true, value: { city: "OSLO", days: 1 } });
    expect(await tool.execute(validated.ok ? validated.value : {})).toEqual({
      output: "OSLO",
      isError: false,
    });
    expect(calls).toEqual([{ city: "Oslo" }]);
    // A copy of that value is not known as validated: it goes through the schema again and fails.
    expect((await tool.execute({ city: "OSLO", days: 1 })).isError).toBe(true);
  });

  it("waits for an asynchronous validate in execute and in validateToolArgumentsAsync", async () => {
    const tool = toTool({
      name: "weather",
      inputSchema: handmade(async (value) => checkCity(value)),
      execute: (args: Record<string, unknown>) => String(args.city),
    });
    expect(await validateToolArgumentsAsync(tool, { city: "Rome" })).toMatchObject({
      ok: false,
      message: "invalid arguments for tool 'weather': /city must be a known city",
    });
    // The synchronous check cannot wait: it reports what the JSON Schema says, and execute still checks.
    const partly = validateToolArguments(tool, { city: "Rome" });
    expect(partly).toEqual({ ok: true, value: { city: "Rome" } });
    expect((await tool.execute(partly.ok ? partly.value : {})).isError).toBe(true);
    expect(await tool.execute({ city: "Rome" })).toEqual({
      output: "invalid arguments for tool 'weather': /city must be a known city",
      isError: true,
    });
    expect(await tool.execute({ city: "Oslo" })).toEqual({ output: "OSLO", isError: false });
  });

  it("reports a validate function that throws as a failure, not an exception", async () => {
    const tool = toTool({
      name: "weather",
      inputSchema: handmade(() => {
        throw new TypeError("validator bug");
      }),
      execute: () => "ran",
    });
    const expected = "the input schema of tool 'weather' failed while validating: TypeError: validator bug";
    expect(validateToolArguments(tool, { city: "Oslo" })).toMatchObject({ ok: false, message: expected });
    expect(await tool.execute({ city: "Oslo" })).toEqual({ output: expected, isError: true });
  });

  it("accepts a Standard Schema given as `params`", () => {
    expect(toTool({ name: "weather", params: handmade(), execute: () => "" }).inputSchema).toBe(citySchema);
  });
});
