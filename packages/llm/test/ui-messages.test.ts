import { describe, expect, it } from "vitest";
import { fromUiMessages, isUiChatRequest } from "../src/index.js";
import { UI_MESSAGE_LIMITS } from "../src/internal.js";

describe("useChat's request body as a conversation", () => {
  it("turns text, tool parts and steps into messages", () => {
    const request = {
      messages: [
        { role: "user", parts: [{ type: "text", text: "time?" }] },
        {
          role: "assistant",
          parts: [
            { type: "step-start" },
            {
              type: "tool-local_time",
              toolCallId: "c1",
              state: "output-available",
              input: { zone: "UTC" },
              output: "12:00 UTC",
            },
            { type: "step-start" },
            { type: "text", text: "It is noon." },
          ],
        },
        { role: "user", parts: [{ type: "text", text: "thanks" }] },
      ],
    };
    expect(isUiChatRequest(request)).toBe(true);
    expect(fromUiMessages(request, "llm:m")).toEqual([
      { role: "user", content: "time?" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c1", name: "local_time", argumentsText: '{"zone":"UTC"}' }],
      },
      {
        role: "tool",
        results: [{ callId: "c1", name: "local_time", output: '"12:00 UTC"', isError: false }],
      },
      { role: "assistant", content: "It is noon." },
      { role: "user", content: "thanks" },
    ]);
  });

  it("refuses other roles and oversized requests, saying where", () => {
    expect(() => fromUiMessages({ messages: [{ role: "tool", parts: [] }] }, "llm:m")).toThrow(
      /llm:m: message 0 has role "tool"; expected user, assistant or system/,
    );
    const many = Array.from({ length: UI_MESSAGE_LIMITS.messages + 1 }, () => ({ role: "user", parts: [] }));
    expect(() => fromUiMessages({ messages: many }, "llm:m")).toThrow(/more than 500/);
    const huge = {
      messages: [{ role: "user", parts: [{ type: "text", text: "x".repeat(UI_MESSAGE_LIMITS.chars + 1) }] }],
    };
    expect(() => fromUiMessages(huge, "llm:m")).toThrow(/more than 1000000 characters/);
    expect(isUiChatRequest({ messages: [] })).toBe(false);
    expect(isUiChatRequest([{ role: "user", content: "x" }])).toBe(false);
  });
});
