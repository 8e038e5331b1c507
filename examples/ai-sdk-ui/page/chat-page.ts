// The chat page of examples/ai-sdk-ui: React with the AI SDK's useChat, talking to the routekit
// route at /api/chat through the UI message stream. Bundled by bundle-page.ts.
import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, type UIMessage } from "ai";
import { type FormEvent, createElement as h, type ReactNode, useState } from "react";
import { createRoot } from "react-dom/client";

const transport = new DefaultChatTransport<UIMessage>({ api: "/api/chat" });

/** One part of a message: its text, its reasoning, or a tool call with its state and output. */
function Part(props: { part: UIMessage["parts"][number] }): ReactNode {
  const { part } = props;
  if (part.type === "text") return h("span", { className: "text" }, part.text);
  if (part.type === "reasoning") return h("em", { className: "reasoning" }, part.text);
  if (part.type.startsWith("tool-") && "state" in part) {
    const output = part.state === "output-available" ? ` → ${JSON.stringify(part.output)}` : "";
    return h(
      "div",
      { className: "tool", "data-state": part.state },
      `${part.type.slice("tool-".length)}(${JSON.stringify(part.input ?? {})})${output}`,
    );
  }
  return null;
}

function Chat(): ReactNode {
  const { messages, sendMessage, status, stop, error } = useChat({ transport });
  const [input, setInput] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (input.trim() === "") return;
    void sendMessage({ text: input });
    setInput("");
  };
  return h(
    "main",
    null,
    h(
      "ol",
      { id: "messages" },
      messages.map((message) =>
        h(
          "li",
          { key: message.id, className: message.role },
          message.parts.map((part, index) => h(Part, { key: index, part })),
        ),
      ),
    ),
    h(
      "form",
      { onSubmit: submit },
      h("input", {
        id: "prompt",
        value: input,
        placeholder: "Ask for the time",
        onChange: (event: { target: { value: string } }) => setInput(event.target.value),
      }),
      h("button", { id: "send", type: "submit", disabled: status !== "ready" }, "Send"),
      h("button", { id: "stop", type: "button", onClick: () => void stop() }, "Stop"),
    ),
    h("p", { id: "status" }, status),
    error === undefined ? null : h("p", { id: "error" }, error.message),
  );
}

const root = document.getElementById("root");
if (root === null) throw new Error("chat page: the element #root is missing");
createRoot(root).render(h(Chat));
