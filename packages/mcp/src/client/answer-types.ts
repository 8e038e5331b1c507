import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";

/**
 * Who answers a server's `elicitation/create` requests: a route (its endpoint URI; it gets the
 * request — `{ message, requestedSchema }` — as its body and replies with an `ElicitResult`, or with
 * the content object to accept) or a function. Fields left out of an accepted answer get the
 * schema's defaults.
 */
export type McpElicitationAnswer =
  | string
  | ((request: ElicitRequestParams) => ElicitResult | Promise<ElicitResult>);

/**
 * Who answers a server's `sampling/createMessage` requests: a route (its endpoint URI, e.g. one
 * with an llm step; it gets the request as its body and replies with text or a
 * `CreateMessageResult`) or a function.
 */
export type McpSamplingAnswer =
  | string
  | ((request: CreateMessageRequestParams) => CreateMessageResult | Promise<CreateMessageResult>);
