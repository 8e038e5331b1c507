import {
  type Component,
  defineComponent,
  type Endpoint,
  type EndpointAddress,
  EndpointOptionError,
  type RouteContext,
} from "@routekit/core";
import { type ComponentTraits, type OptionsOf, parseUri, truncateForMessage } from "@routekit/core/internal";
import type { Dispatcher } from "undici";
import { createHttpClient } from "./http-client.js";
import { HttpError } from "./http-error.js";
import { HTTP_HEADERS } from "./http-headers.js";
import { serverOf } from "./http-server-registry.js";
import { parsePath } from "./route-table.js";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** The URI options of `http:` and `https:` endpoints (server and client share one schema). */
export const HTTP_ENDPOINT_OPTIONS = {
  httpMethodRestrict: {
    type: "list",
    description: "Server: the methods the route accepts, e.g. POST or GET,HEAD (default: every method)",
  },
  httpMethod: {
    type: "enum",
    values: METHODS,
    description: "Client: the request method (default: POST when the body is present, else GET)",
  },
  throwExceptionOnFailure: {
    type: "boolean",
    default: true,
    description: "Client: fail the exchange when the status is outside okStatusCodeRange",
  },
  okStatusCodeRange: {
    type: "string",
    default: "200-299",
    description: "Client: statuses that count as success, e.g. 200-299 or 200-399",
  },
  timeout: {
    type: "integer",
    default: 30_000,
    min: 1,
    description: "Client: deadline of the whole call in ms",
  },
  maxResponseBytes: {
    type: "integer",
    default: 10 * 1024 * 1024,
    min: 1,
    description: "Client: the largest response body accepted, in bytes",
  },
} as const;

type HttpEndpointOptions = OptionsOf<typeof HTTP_ENDPOINT_OPTIONS>;

const SERVER_OPTIONS = new Set(["httpMethodRestrict"]);

/** Names of the options written in the URI (defaults are not "written"). */
function writtenOptions(uri: string): string[] {
  return [...parseUri(uri).query.keys()];
}

function serverEndpoint(address: EndpointAddress<HttpEndpointOptions>, context: RouteContext): Endpoint {
  const uri = address.uri;
  for (const name of writtenOptions(uri)) {
    if (!SERVER_OPTIONS.has(name)) {
      throw new EndpointOptionError(
        uri,
        name,
        `Endpoint '${uri}': option '${name}' is a client option; a server path like 'http:/orders' takes only httpMethodRestrict`,
      );
    }
  }
  parsePath(address.path, uri);
  const methods = (address.options.httpMethodRestrict ?? []).map((method) => method.toUpperCase());
  for (const method of methods) {
    if (!(METHODS as readonly string[]).includes(method)) {
      throw new EndpointOptionError(
        uri,
        "httpMethodRestrict",
        `Endpoint '${uri}': option 'httpMethodRestrict' expects methods among ${METHODS.join(", ")} (found '${method}')`,
      );
    }
  }
  const server = serverOf(context, uri);
  return {
    uri,
    send() {
      throw new HttpError(
        "HTTP_OPTION_INVALID",
        `Endpoint '${uri}' is a server path (routes consume from it); to call a server use a URL like 'http://host:port/path'`,
      );
    },
    createConsumer(processor, route) {
      return {
        start() {
          server.register(address.path, { routeId: route.routeId, methods, handler: { uri, processor } });
        },
        stop() {
          server.unregister(route.routeId);
          if (context.state === "stopping") server.beginStop();
        },
      };
    },
  };
}

function parseRange(uri: string, text: string): [number, number] {
  const match = /^\s*(\d{3})\s*-\s*(\d{3})\s*$/.exec(text) ?? /^\s*(\d{3})\s*$/.exec(text);
  const low = Number(match?.[1]);
  const high = Number(match?.[2] ?? match?.[1]);
  if (match === null || low < 100 || high > 599 || low > high) {
    throw new EndpointOptionError(
      uri,
      "okStatusCodeRange",
      `Endpoint '${uri}': option 'okStatusCodeRange' expects a range like 200-299 within 100-599 (found '${truncateForMessage(text)}')`,
    );
  }
  return [low, high];
}

function clientEndpoint(
  address: EndpointAddress<HttpEndpointOptions>,
  dispatcher: Dispatcher | undefined,
): Endpoint {
  const uri = address.uri;
  if (writtenOptions(uri).includes("httpMethodRestrict")) {
    throw new EndpointOptionError(
      uri,
      "httpMethodRestrict",
      `Endpoint '${uri}': option 'httpMethodRestrict' belongs to server paths like 'http:/orders', not to a client URL (use httpMethod)`,
    );
  }
  const target = `${address.scheme}:${address.path}`;
  let parsed: URL;
  try {
    parsed = new URL(target);
  } catch {
    throw new HttpError(
      "HTTP_OPTION_INVALID",
      `Endpoint '${truncateForMessage(uri)}': '${truncateForMessage(target)}' is not a valid URL`,
    );
  }
  if (parsed.hostname === "" || parsed.search !== "" || parsed.hash !== "") {
    throw new HttpError(
      "HTTP_OPTION_INVALID",
      `Endpoint '${uri}': expected '${address.scheme}://host[:port]/path' with endpoint options as the query (found '${target}')`,
    );
  }
  const options = address.options;
  const send = createHttpClient(
    uri,
    target,
    {
      httpMethod: options.httpMethod,
      throwExceptionOnFailure: options.throwExceptionOnFailure,
      okStatusCodeRange: parseRange(uri, options.okStatusCodeRange),
      timeout: options.timeout,
      maxResponseBytes: options.maxResponseBytes,
    },
    dispatcher,
  );
  return { uri, send };
}

/** An http: route: requests arrive with their headers under `http.header.*`. */
const HTTP_SERVER_TRAITS: ComponentTraits = {
  inProcess: false,
  http: "server",
  headerPrefixes: { received: HTTP_HEADERS.requestHeaderPrefix, sent: HTTP_HEADERS.responseHeaderPrefix },
};

/** A call to a remote server: `http.request.header.*` headers are sent as request headers. */
const HTTP_CLIENT_TRAITS: ComponentTraits = {
  inProcess: false,
  http: "client",
  headerPrefixes: { sent: HTTP_HEADERS.outgoingHeaderPrefix },
};

/** Where the http components put protocol header names (redaction finds a header's own name after them). */
const HTTP_HEADER_PREFIXES = [
  HTTP_HEADERS.requestHeaderPrefix,
  HTTP_HEADERS.outgoingHeaderPrefix,
  HTTP_HEADERS.responseHeaderPrefix,
];

/**
 * The `http:` component: `http:/path` is a route on the context's shared server (consumer),
 * `http://host/path` a client call (producer).
 */
export function createHttpComponent(dispatcher: Dispatcher | undefined): Component {
  const component = defineComponent({
    scheme: "http",
    options: HTTP_ENDPOINT_OPTIONS,
    traits: (address) => (address.path.startsWith("//") ? HTTP_CLIENT_TRAITS : HTTP_SERVER_TRAITS),
    headerPrefixes: HTTP_HEADER_PREFIXES,
    createEndpoint(address, context) {
      if (address.path.startsWith("//")) return clientEndpoint(address, dispatcher);
      return serverEndpoint(address, context);
    },
  });
  return component as unknown as Component;
}

/** The `https:` component: client calls only (`https://host/path`). */
export function createHttpsComponent(dispatcher: Dispatcher | undefined): Component {
  const component = defineComponent({
    scheme: "https",
    options: HTTP_ENDPOINT_OPTIONS,
    traits: HTTP_CLIENT_TRAITS,
    headerPrefixes: HTTP_HEADER_PREFIXES,
    createEndpoint(address) {
      if (!address.path.startsWith("//")) {
        throw new HttpError(
          "HTTP_OPTION_INVALID",
          `Endpoint '${address.uri}': expected 'https://host[:port]/path' (server routes use 'http:/path')`,
        );
      }
      return clientEndpoint(address, dispatcher);
    },
  });
  return component as unknown as Component;
}
