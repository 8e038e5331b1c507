// The code of docs/tools/http-tool.md: type-checked, not run (the tool calls a remote host).
import "@routekit/llm/tool";
import { createContext } from "@routekit/core";

const context = createContext();

// #region register
import { httpTool } from "@routekit/llm-tools";

context.tools.register(
  httpTool({
    name: "create_issue",
    description: "Open an issue in a repository.",
    method: "POST",
    url: "https://api.example.com/repos/{owner}/{repo}/issues",
    headers: { Authorization: "Bearer ${EXAMPLE_TOKEN}" },
    resultMode: "json",
  }),
);
// #endregion register
