// @routekit/http: the context's HTTP server (`from("http:/path")`) and the HTTP client producer
// (`to("https://host/path")`).

export { HTTP_ENDPOINT_OPTIONS } from "./http-component.js";
export {
  HttpError,
  type HttpErrorCode,
  HttpOperationFailedError,
  type HttpOperationFailure,
} from "./http-error.js";
export { HTTP_HEADERS } from "./http-headers.js";
export { type HttpPluginOptions, httpPlugin } from "./http-plugin.js";
export type { HttpServer, HttpServerSettings } from "./http-server.js";
export { httpServerOf } from "./http-server-registry.js";
export { type MountedHttpHandler, mountHttpHandler } from "./mounted-handlers.js";
