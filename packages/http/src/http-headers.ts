/**
 * Exchange header names used by @routekit/http. Request data from a client lands only under
 * `http.*` names, so a client can never set a framework header (`llm.*`, `routekit.*`, ...).
 */
export const HTTP_HEADERS = {
  /** Server: the request method, upper case. */
  method: "http.method",
  /** Server: the request path, without the query. */
  path: "http.path",
  /** Server: the query parameters (a repeated name gives an array). */
  query: "http.query",
  /** Server: prefix of the request headers, lower-cased: `http.header.content-type`. */
  requestHeaderPrefix: "http.header.",
  /** Server: prefix of path template values: `http.path.id` for `/orders/{id}`. */
  pathParameterPrefix: "http.path.",
  /** Server: the client's address. */
  remoteAddress: "http.remoteAddress",
  /** Server reply status, and the status the client producer received. */
  status: "http.status",
  /** Server: prefix of the reply headers: `http.response.header.cache-control`. */
  responseHeaderPrefix: "http.response.header.",
  /** Client: prefix of the headers sent to the remote server: `http.request.header.authorization`. */
  outgoingHeaderPrefix: "http.request.header.",
  /** Client: query parameters added to the target URL (an object, or text like `a=1&b=2`). */
  outgoingQuery: "http.request.query",
  /** Client: the remote server's response headers (an object, names lower-cased). */
  replyHeaders: "http.reply.headers",
} as const;
