import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LlmToolsError } from "../src/errors.js";
import { createGuardedLookup, fetchText, type HttpFetchOptions } from "../src/http-fetch/index.js";
import { type LoopbackServer, startLoopbackServer } from "./support/loopback-server.js";

let server: LoopbackServer;

beforeAll(async () => {
  server = await startLoopbackServer((request, response) => {
    if (request.url === "/to-loopback") {
      response.writeHead(302, { location: `http://127.0.0.1:${server.port}/secret` });
      response.end();
    } else if (request.url === "/to-ftp") {
      response.writeHead(302, { location: "ftp://127.0.0.1/secret" });
      response.end();
    } else {
      response.end("reached");
    }
  });
});
afterAll(() => server.close());
afterEach(() => {
  server.requests.length = 0;
});

/** A DNS lookup that answers every name with the given addresses and records the names asked. */
function fakeLookup(addresses: LookupAddress[], asked: string[] = []): LookupFunction {
  return (hostname, options, callback) => {
    asked.push(hostname);
    if (options.all === true) callback(null, addresses);
    else callback(null, addresses[0]?.address ?? "", addresses[0]?.family);
  };
}

async function refusal(url: string, options: HttpFetchOptions = {}): Promise<LlmToolsError> {
  const error = await fetchText(url, options).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LlmToolsError);
  return error as LlmToolsError;
}

describe("http_fetch refuses requests to the local network", () => {
  const attacks = (port: number): string[] => [
    `http://127.0.0.1:${port}/`,
    `http://localhost:${port}/`,
    `http://2130706433:${port}/`,
    `http://0x7f000001:${port}/`,
    `http://0x7f.1:${port}/`,
    `http://127.1:${port}/`,
    `http://[::1]:${port}/`,
    `http://[::ffff:127.0.0.1]:${port}/`,
    `http://[::ffff:7f00:1]:${port}/`,
  ];

  it("refuses every loopback spelling and the server sees no request", async () => {
    for (const url of attacks(server.port)) {
      const error = await refusal(url);
      expect(error.code, url).toBe("TOOL_GUARD_REFUSED");
      expect(error.toolName).toBe("http_fetch");
      expect(error.message).toMatch(/loopback/);
      expect(error.message).toContain("allowPrivateNetwork");
    }
    expect(server.requests).toEqual([]);
  });

  it("lets the same URLs through with allowPrivateNetwork, so the zero above is meaningful", async () => {
    const options: HttpFetchOptions = { allowPrivateNetwork: true };
    const reached: string[] = [];
    for (const url of attacks(server.port)) {
      if (url.includes("[::1]") && !server.ipv6) continue;
      const result = await fetchText(url, options);
      expect(result.text, url).toBe("reached");
      reached.push(url);
    }
    expect(server.requests).toHaveLength(reached.length);
    expect(reached.length).toBe(attacks(server.port).length - (server.ipv6 ? 0 : 1));
  });

  it("checks the addresses a name resolves to at connect time (a public-looking name on loopback)", async () => {
    const asked: string[] = [];
    const lookup = fakeLookup([{ address: "127.0.0.1", family: 4 }], asked);
    const error = await refusal(`http://public.example.test:${server.port}/`, { lookup });
    expect(error.code).toBe("TOOL_GUARD_REFUSED");
    expect(error.message).toBe(
      "http_fetch: refused to connect to 'public.example.test': it resolves to 127.0.0.1, loopback (127.0.0.0/8) " +
        "(set allowPrivateNetwork: true to allow private addresses)",
    );
    expect(asked).toEqual(["public.example.test"]);
    expect(server.requests).toEqual([]);

    const allowed = await fetchText(`http://public.example.test:${server.port}/`, {
      lookup,
      allowPrivateNetwork: true,
    });
    expect(allowed.text).toBe("reached");
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ["::1", "loopback (::1)"],
    ["::ffff:127.0.0.1", "loopback (127.0.0.0/8) embedded in an IPv4-mapped IPv6 address as 127.0.0.1"],
    ["127.0.0.2", "loopback (127.0.0.0/8)"],
  ])("refuses a name resolving to %s at connect time, with no request sent", async (address, reason) => {
    // Only loopback answers here: even a broken guard could not send traffic off this machine.
    const asked: string[] = [];
    const lookup = fakeLookup([{ address, family: address.includes(":") ? 6 : 4 }], asked);
    const error = await refusal(`http://internal.example.test:${server.port}/latest/meta-data/`, { lookup });
    expect(error.code).toBe("TOOL_GUARD_REFUSED");
    expect(error.message).toContain(`it resolves to ${address}, ${reason}`);
    expect(asked).toEqual(["internal.example.test"]);
    expect(server.requests).toEqual([]);
  });

  it("re-checks the allowlist on every redirect hop", async () => {
    const error = await refusal(`http://localhost:${server.port}/to-loopback`, {
      hostAllowlist: ["localhost"],
      allowPrivateNetwork: true,
    });
    expect(error.code).toBe("TOOL_GUARD_REFUSED");
    expect(error.message).toBe(
      `http_fetch: refused redirect to http://127.0.0.1:${server.port}/secret: host '127.0.0.1' is not in ` +
        "hostAllowlist [localhost]",
    );
    expect(server.requests.map((request) => request.url)).toEqual(["/to-loopback"]);
  });

  it("refuses a redirect to a scheme other than http and https", async () => {
    const error = await refusal(`http://localhost:${server.port}/to-ftp`, { allowPrivateNetwork: true });
    expect(error.code).toBe("TOOL_FAILED");
    expect(error.message).toMatch(/failed: .*must start with `http:` or `https:`/);
    expect(server.requests.map((request) => request.url)).toEqual(["/to-ftp"]);
  });
});

describe("createGuardedLookup", () => {
  function run(
    lookup: LookupFunction,
    all: boolean,
  ): Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family: unknown }> {
    return new Promise((resolve) => {
      lookup("name.example.test", { all }, (error, address, family) => resolve({ error, address, family }));
    });
  }

  it.each([
    ["10.0.0.1", "private network (10.0.0.0/8)"],
    ["169.254.169.254", "cloud metadata service (169.254.169.254)"],
    ["fd00:ec2::254", "unique-local (fc00::/7)"],
    ["::ffff:169.254.169.254", "cloud metadata service (169.254.169.254) embedded in an IPv4-mapped IPv6"],
  ])("refuses a name resolving to %s before any socket exists", async (address, reason) => {
    // The lookup is called on its own: no dispatcher, no socket, so nothing can be sent anywhere.
    const asked: string[] = [];
    const guarded = createGuardedLookup(
      "http_fetch",
      fakeLookup([{ address, family: address.includes(":") ? 6 : 4 }], asked),
    );
    for (const all of [true, false]) {
      const { error, address: handedOn } = await run(guarded, all);
      expect(error).toBeInstanceOf(LlmToolsError);
      expect((error as LlmToolsError).code).toBe("TOOL_GUARD_REFUSED");
      expect(error?.message).toContain(
        `refused to connect to 'name.example.test': it resolves to ${address}, ${reason}`,
      );
      expect(handedOn).toEqual([]);
    }
    expect(asked).toEqual(["name.example.test", "name.example.test"]);
  });

  it("refuses the whole answer when any one address is refused", async () => {
    const guarded = createGuardedLookup(
      "http_fetch",
      fakeLookup([
        { address: "93.184.216.34", family: 4 },
        { address: "10.1.2.3", family: 4 },
      ]),
    );
    const { error } = await run(guarded, true);
    expect(error).toBeInstanceOf(LlmToolsError);
    expect(error?.message).toContain("it resolves to 10.1.2.3, private network (10.0.0.0/8)");
  });

  it("passes public answers on in the shape the caller asked for", async () => {
    const answer = [
      { address: "93.184.216.34", family: 4 },
      { address: "2606:2800:220:1:248:1893:25c8:1946", family: 6 },
    ];
    const guarded = createGuardedLookup("http_fetch", fakeLookup(answer));
    expect(await run(guarded, true)).toEqual({ error: null, address: answer, family: undefined });
    expect(await run(guarded, false)).toEqual({ error: null, address: "93.184.216.34", family: 4 });
  });

  it("passes DNS errors through and refuses an empty answer", async () => {
    const failure = Object.assign(new Error("getaddrinfo ENOTFOUND name.example.test"), {
      code: "ENOTFOUND",
    });
    const failing: LookupFunction = (_hostname, _options, callback) => callback(failure, []);
    expect((await run(createGuardedLookup("http_fetch", failing), true)).error).toBe(failure);
    const empty = await run(createGuardedLookup("http_fetch", fakeLookup([])), true);
    expect(empty.error?.message).toBe("http_fetch: 'name.example.test' resolved to no address");
  });
});
