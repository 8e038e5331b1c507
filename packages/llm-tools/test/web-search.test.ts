import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  resolveTavilyKey,
  runWebSearch,
  type TavilyWebSearchOptions,
  tavilySearch,
  WEB_SEARCH_INPUT_SCHEMA,
} from "../src/web-search/index.js";
import { toolErrorOf } from "./support/failures.js";
import { type LoopbackServer, startLoopbackServer } from "./support/loopback-server.js";

const KEY = "tvly-test-0123456789abcdef";
let tavily: LoopbackServer;
let options: TavilyWebSearchOptions;

/** A loopback server speaking Tavily's search API. */
beforeAll(async () => {
  tavily = await startLoopbackServer((request, response) => {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(typeof body === "string" ? body : JSON.stringify(body));
    };
    if (request.method !== "POST" || request.url !== "/search") return reply(404, { detail: "Not Found" });
    if (request.headers.authorization !== `Bearer ${KEY}`) {
      return reply(401, { detail: { error: "Unauthorized: missing or invalid API key." } });
    }
    const { query, max_results: maxResults } = JSON.parse(request.body) as {
      query: string;
      max_results: number;
    };
    if (query === "slow") return; // never answers
    if (query === "echo key") return reply(400, { detail: { error: `key ${KEY} is not allowed here` } });
    if (query === "long failure") return reply(502, `upstream said: ${"z".repeat(2000)}`);
    if (query === "broken") return reply(200, "<html>oops</html>");
    if (query === "odd shape") return reply(200, { results: "none" });
    const results = Array.from({ length: maxResults }, (_, index) => ({
      title: `Result ${index + 1}`,
      url: `https://example.com/${index + 1}`,
      content: `About ${query}`,
      score: 0.9 - index / 100,
      raw_content: null,
    }));
    return reply(200, {
      query,
      answer: query === "no answer" ? null : `An answer about ${query}.`,
      images: [],
      results,
      response_time: 0.42,
    });
  });
  options = { apiKey: KEY, baseUrl: tavily.origin };
});
afterAll(() => tavily.close());
afterEach(() => {
  vi.unstubAllEnvs();
  tavily.requests.length = 0;
});

describe("tavilySearch", () => {
  it("POSTs the query to /search with the bearer key and returns answer and results", async () => {
    const result = await tavilySearch({ query: "routekit", max_results: 2 }, options);
    expect(result).toEqual({
      answer: "An answer about routekit.",
      results: [
        { title: "Result 1", url: "https://example.com/1", content: "About routekit" },
        { title: "Result 2", url: "https://example.com/2", content: "About routekit" },
      ],
    });
    const [request] = tavily.requests;
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request?.body ?? "")).toEqual({
      query: "routekit",
      max_results: 2,
      search_depth: "basic",
      include_answer: true,
    });
  });

  it("omits the answer when Tavily gives none, and can ask for none", async () => {
    const result = await tavilySearch({ query: "no answer" }, options);
    expect(Object.keys(result)).toEqual(["results"]);
    await tavilySearch({ query: "x" }, { ...options, includeAnswer: false });
    expect(JSON.parse(tavily.requests.at(-1)?.body ?? "")).toMatchObject({ include_answer: false });
  });

  it.each([
    [undefined, 5],
    [0, 1],
    [-3, 1],
    [50, 20],
    [3.7, 3],
  ])("clamps max_results %j to %i", async (maxResults, sent) => {
    const result = await tavilySearch(
      { query: "q", ...(maxResults === undefined ? {} : { max_results: maxResults }) },
      options,
    );
    expect(result.results).toHaveLength(sent);
    expect(JSON.parse(tavily.requests.at(-1)?.body ?? "")).toMatchObject({ max_results: sent });
  });

  it("takes the key from TAVILY_API_KEY when no apiKey is given", async () => {
    vi.stubEnv("TAVILY_API_KEY", KEY);
    const result = await tavilySearch({ query: "env" }, { baseUrl: tavily.origin });
    expect(result.results).toHaveLength(5);
  });

  it("fails clearly without a key, before sending anything", async () => {
    vi.stubEnv("TAVILY_API_KEY", undefined);
    const message =
      "web_search: no Tavily API key: set option 'apiKey' or the TAVILY_API_KEY environment variable";
    const error = await toolErrorOf(tavilySearch({ query: "q" }, { baseUrl: tavily.origin }));
    expect(error.code).toBe("TOOL_OPTION_INVALID");
    expect(error.message).toBe(message);
    expect(() => resolveTavilyKey({})).toThrow(message);
    expect(() => resolveTavilyKey({ apiKey: " " })).toThrow(
      "web_search: option 'apiKey' must be a non-empty string",
    );
    expect(resolveTavilyKey({}, { TAVILY_API_KEY: "from-env" })).toBe("from-env");
    expect(tavily.requests).toEqual([]);
  });

  it("names the status and Tavily's error detail on a non-2xx answer", async () => {
    const error = await toolErrorOf(tavilySearch({ query: "q" }, { ...options, apiKey: "tvly-wrong" }));
    expect(error.code).toBe("TOOL_FAILED");
    expect(error.message).toBe(
      "web_search: Tavily answered HTTP 401: Unauthorized: missing or invalid API key.",
    );
  });

  it("shows at most 512 characters of an error body", async () => {
    const error = await toolErrorOf(tavilySearch({ query: "long failure" }, options));
    expect(error.message.startsWith("web_search: Tavily answered HTTP 502: upstream said: zzz")).toBe(true);
    const shown = error.message.slice("web_search: Tavily answered HTTP 502: ".length);
    expect(shown).toHaveLength(513);
    expect(shown.endsWith("…")).toBe(true);
  });

  it("never puts the key in an error message", async () => {
    const echoed = await toolErrorOf(tavilySearch({ query: "echo key" }, options));
    expect(echoed.message).toBe("web_search: Tavily answered HTTP 400: key [redacted] is not allowed here");
    const closed = await startLoopbackServer();
    await closed.close();
    const refused = await toolErrorOf(
      tavilySearch({ query: "q" }, { ...options, baseUrl: `${closed.origin}/${KEY}` }),
    );
    expect(refused.code).toBe("TOOL_FAILED");
    expect(refused.message).not.toContain(KEY);
    for (const error of [echoed, refused])
      expect(JSON.stringify({ ...error, message: error.message })).not.toContain(KEY);
  });

  it("fails on a response that is not Tavily's format", async () => {
    const broken = await toolErrorOf(tavilySearch({ query: "broken" }, options));
    expect(broken.message).toBe("web_search: Tavily's response is not valid JSON: <html>oops</html>");
    const odd = await toolErrorOf(tavilySearch({ query: "odd shape" }, options));
    expect(odd.message).toBe(`web_search: Tavily's response has no 'results' array: {"results":"none"}`);
  });

  it("stops at the deadline", async () => {
    const error = await toolErrorOf(tavilySearch({ query: "slow" }, { ...options, timeoutMs: 200 }));
    expect(error.code).toBe("TOOL_TIMEOUT");
    expect(error.message).toBe("web_search: Tavily did not answer within 200 ms");
  });

  it("rejects with the caller's reason when the caller aborts", async () => {
    const reason = new Error("stop");
    const controller = new AbortController();
    const pending = tavilySearch({ query: "slow" }, options, controller.signal);
    setTimeout(() => controller.abort(reason), 50);
    await expect(pending).rejects.toBe(reason);
  });

  it.each([
    [{ query: "" }, "web_search: key 'query' must be a non-empty string (found the string \"\")"],
    [{ query: "   " }, "web_search: key 'query' must be a non-empty string"],
    [
      { query: "q", max_results: Number.NaN },
      "web_search: key 'max_results' must be a number (found number NaN)",
    ],
  ])("refuses the input %j", async (input, message) => {
    const error = await toolErrorOf(tavilySearch(input, options));
    expect(error.code).toBe("TOOL_INPUT_INVALID");
    expect(error.message).toContain(message);
  });

  it.each([
    [
      { baseUrl: "api.tavily.com" },
      "option 'baseUrl' must be an absolute http or https URL without query or fragment",
    ],
    [{ baseUrl: "http://127.0.0.1:1/?x=1" }, "option 'baseUrl' must be an absolute http or https URL"],
    [{ timeoutMs: 0 }, "option 'timeoutMs' must be a whole number of milliseconds >= 1 (found number 0)"],
    [{ includeAnswer: "yes" }, "option 'includeAnswer' must be true or false"],
    [
      { api_key: KEY },
      "unknown option 'api_key' (did you mean 'apiKey'?) (expected one of apiKey, baseUrl, includeAnswer, timeoutMs, dispatcher)",
    ],
  ])("refuses the options %j", async (override, message) => {
    const error = await toolErrorOf(
      tavilySearch({ query: "q" }, { ...options, ...override } as TavilyWebSearchOptions),
    );
    expect(error.code).toBe("TOOL_OPTION_INVALID");
    expect(error.message).toContain(message);
    expect(tavily.requests).toEqual([]);
  });

  it("accepts a base URL with a trailing slash", async () => {
    await tavilySearch({ query: "q", max_results: 1 }, { ...options, baseUrl: `${tavily.origin}/` });
    expect(tavily.requests.at(-1)?.url).toBe("/search");
  });
});

describe("runWebSearch", () => {
  it("reads {query, max_results} as an object, JSON text, or the query as plain text", async () => {
    const expected = (count: number) => ({ "llm.web_search.results": count });
    const fromObject = await runWebSearch({ query: "routekit", max_results: 2 }, options);
    expect(fromObject.headers).toEqual(expected(2));
    expect(JSON.parse(fromObject.text)).toEqual(
      await tavilySearch({ query: "routekit", max_results: 2 }, options),
    );
    expect((await runWebSearch('{"query":"routekit","max_results":"3"}', options)).headers).toEqual(
      expected(3),
    );
    const plain = await runWebSearch("what is routekit?", options);
    expect(plain.headers).toEqual(expected(5));
    expect(JSON.parse(tavily.requests.at(-1)?.body ?? "")).toMatchObject({ query: "what is routekit?" });
  });

  it("writes the output in the seed's shape", async () => {
    const { text } = await runWebSearch({ query: "no answer", max_results: 1 }, options);
    expect(text).toBe(
      '{"results":[{"title":"Result 1","url":"https://example.com/1","content":"About no answer"}]}',
    );
  });

  it.each([
    [undefined, "web_search: input is empty (expected a JSON object)"],
    ["{not json", "web_search: input is not valid JSON"],
    [{}, "web_search: required key 'query' is missing"],
    [{ query: 5 }, "web_search: key 'query' must be a string (found number 5)"],
    [{ query: "q", max_results: "many" }, "web_search: key 'max_results' must be a number"],
  ])("refuses the input %j", async (body, message) => {
    const error = await toolErrorOf(runWebSearch(body, options));
    expect(error.code).toBe("TOOL_INPUT_INVALID");
    expect(error.message).toContain(message);
  });

  it("exports the input schema", () => {
    expect(WEB_SEARCH_INPUT_SCHEMA).toMatchObject({
      type: "object",
      properties: { query: { type: "string" }, max_results: { type: "integer", minimum: 1, maximum: 20 } },
      required: ["query"],
      additionalProperties: false,
    });
  });
});
