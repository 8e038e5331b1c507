/** One part of a resource a server sent: text, or binary as base64 (`blob`). */
export interface McpResourceContent {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text?: string;
  readonly blob?: string;
}

/** What `resources/read` answered. */
export interface McpReadResourceResult {
  readonly contents: readonly McpResourceContent[];
}

/** One message of a prompt: its role and one content block (text, image, audio, resource...). */
export interface McpPromptMessage {
  readonly role: "user" | "assistant";
  readonly content: { readonly type: string } & Readonly<Record<string, unknown>>;
}

/** What `prompts/get` answered. */
export interface McpGetPromptResult {
  readonly description?: string;
  readonly messages: readonly McpPromptMessage[];
}
