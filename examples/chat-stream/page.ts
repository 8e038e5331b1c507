/** The example's page: a question box and the answer as it arrives over `EventSource`. */
export const CHAT_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>routekit chat-stream</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; }
  #answer { white-space: pre-wrap; border: 1px solid #ccc; padding: 1rem; min-height: 4rem; }
  #tools { color: #666; font-size: 0.9rem; }
</style>
</head>
<body>
<h1>Ask the agent</h1>
<form id="ask"><input id="question" name="q" size="40" value="What time is it?"> <button>Ask</button></form>
<p id="tools"></p>
<div id="answer"></div>
<p id="status">idle</p>
<script>
  const form = document.getElementById("ask");
  const answer = document.getElementById("answer");
  const tools = document.getElementById("tools");
  const status = document.getElementById("status");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    answer.textContent = "";
    tools.textContent = "";
    status.textContent = "streaming";
    const source = new EventSource("/chat?q=" + encodeURIComponent(document.getElementById("question").value));
    source.onmessage = (message) => {
      const part = JSON.parse(message.data);
      if (part.type === "text-delta") answer.textContent += part.text;
      else if (part.type === "tool-call") tools.textContent += "calling " + part.toolName + "… ";
      else if (part.type === "tool-result") tools.textContent += part.toolName + (part.isError ? " failed. " : " answered. ");
      else if (part.type === "finish") { status.textContent = "done (" + part.usage.outputTokens + " tokens out)"; source.close(); }
      else if (part.type === "error") { status.textContent = "error: " + part.error; source.close(); }
    };
    // The server ends the stream after the finish part; without close() EventSource would reconnect.
    source.onerror = () => { if (status.textContent === "streaming") status.textContent = "connection lost"; source.close(); };
  });
</script>
</body>
</html>
`;
