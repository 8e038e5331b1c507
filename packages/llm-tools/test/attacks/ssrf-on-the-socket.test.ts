import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createGuardedDispatcher, fetchText, type HttpFetchOptions, LlmToolsError } from "../../src/index.js";
import { type CanaryServer, startCanaryServer } from "./support/canary-server.js";
import { createLoopbackDialer, tableLookup } from "./support/loopback-dialer.js";

// Only loopback is ever a target here. Names resolve through `tableLookup`, never a resolver;
// addresses off this machine are only ever handed to `createLoopbackDialer`, which dials the
// canary instead, so a broken guard cannot send a packet anywhere else.

let canary: CanaryServer;
/** A loopback server that answers `/to?url` with a 302 to `url`; it is the allowed first hop. */
let bouncer: Server;
let bouncerPort: number;

beforeAll(async () => {
  canary = await startCanaryServer();
  bouncer = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://bouncer");
    const location = url.searchParams.get("url");
    if (url.pathname === "/to" && location !== null) {
      response.writeHead(302, { location, connection: "close" });
      response.end();
    } else if (url.pathname === "/loop") {
      response.writeHead(302, { location: "/loop", connection: "close" });
      response.end();
    } else if (url.pathname.startsWith("/hop/")) {
      const left = Number(url.pathname.slice("/hop/".length));
      response.writeHead(302, { location: `/hop/${left + 1}`, connection: "close" });
      response.end();
    } else {
      response.setHeader("connection", "close");
      response.end("bouncer");
    }
  });
  await new Promise<void>((resolve) => bouncer.listen(0, "127.0.0.1", resolve));
  bouncerPort = (bouncer.address() as AddressInfo).port;
});
afterAll(async () => {
  await canary.close();
  bouncer.closeAllConnections();
  await new Promise<void>((resolve) => bouncer.close(() => resolve()));
});
afterEach(() => canary.reset());

async function refused(url: string, options: HttpFetchOptions = {}): Promise<LlmToolsError> {
  const outcome = await fetchText(url, options).then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  if ("result" in outcome) throw new Error(`${url} was fetched: ${JSON.stringify(outcome.result)}`);
  expect(outcome.error).toBeInstanceOf(LlmToolsError);
  return outcome.error as LlmToolsError;
}

describe("a '//' path or a special spelling never changes the host that is judged", () => {
  const spellings = (port: number): string[] => [
    `http://127.0.0.1:${port}//x/`,
    `http://127.0.0.1:${port}//example.com/`,
    `http://[::1]:${port}//x/`,
    `http://2130706433:${port}//x/`,
    `http://0.0.0.0:${port}//x/`,
    `http://0:${port}//x/`,
    `http://0x7f.1:${port}//x/`,
    `http://0x7f000001:${port}/`,
    `http://0177.0.0.1:${port}/`,
    `http://127.1:${port}//x/`,
    `http://[::ffff:127.0.0.1]:${port}//x/`,
    `http://[::ffff:7f00:1]:${port}/`,
    `http://[0:0:0:0:0:ffff:127.0.0.1]:${port}/`,
    `http://allowed.example@127.0.0.1:${port}/`,
    `http://user:pass@127.0.0.1:${port}//x/`,
    `http://127.0.0.1:${port}\\x\\`,
    `http:\\\\127.0.0.1:${port}\\x`,
    `http://127.0.\t0.1:${port}/`,
    `http://127.0.0.1\n:${port}/`,
    `HTTP://127.0.0.1:${port}//x/`,
    `hTtP://127.0.0.1:${port}/`,
    `http:127.0.0.1:${port}/`,
    `http:/127.0.0.1:${port}/`,
    `http://127.0.0.1.:${port}/`,
    `http://%31%32%37.0.0.1:${port}/`,
    `http://１２７.０.０.１:${port}/`,
  ];

  it("refuses every spelling of loopback with default options, and the canary accepts no socket", async () => {
    for (const url of spellings(canary.port)) {
      const error = await refused(url);
      expect(error.code, url).toBe("TOOL_GUARD_REFUSED");
      expect(error.message, url).toMatch(/loopback|unspecified/);
      expect(error.message, url).toContain("allowPrivateNetwork");
    }
    expect(canary.connections).toBe(0);
  });

  it("reaches the canary with the same spellings once allowPrivateNetwork is set (the zero is meaningful)", async () => {
    let reached = 0;
    for (const url of spellings(canary.port)) {
      if (url.includes("[") && !canary.ipv6) continue;
      const result = await fetchText(url, { allowPrivateNetwork: true });
      expect(result.text, url).toBe("canary");
      reached += 1;
    }
    expect(canary.connections).toBe(reached);
  });

  it("judges the allowlist by the origin a connection goes to, not by a host written in the path", async () => {
    const lookup = tableLookup({ localhost: ["127.0.0.1"] });
    for (const url of [
      `http://127.0.0.1:${canary.port}//localhost/`,
      `http://127.0.0.1:${canary.port}//localhost:${canary.port}/`,
      `http://localhost@127.0.0.1:${canary.port}/`,
    ]) {
      const error = await refused(url, { hostAllowlist: ["localhost"], allowPrivateNetwork: true, lookup });
      expect(error.code, url).toBe("TOOL_GUARD_REFUSED");
      expect(error.message, url).toContain("host '127.0.0.1' is not in hostAllowlist [localhost]");
    }
    expect(canary.connections).toBe(0);
  });
});

describe("every redirect hop is judged on its connection", () => {
  const lookup = tableLookup({ localhost: ["127.0.0.1"], bouncer: ["127.0.0.1"] });
  const hop = (location: string): string =>
    `http://bouncer:${bouncerPort}/to?url=${encodeURIComponent(location)}`;

  it("refuses a 302 to http://127.0.0.1:T//localhost/ under hostAllowlist ['localhost', 'bouncer']", async () => {
    const error = await refused(hop(`http://127.0.0.1:${canary.port}//localhost/`), {
      hostAllowlist: ["localhost", "bouncer"],
      allowPrivateNetwork: true,
      lookup,
    });
    expect(error.code).toBe("TOOL_GUARD_REFUSED");
    expect(error.message).toBe(
      `http_fetch: refused redirect to http://127.0.0.1:${canary.port}//localhost/: host '127.0.0.1' is ` +
        "not in hostAllowlist [localhost, bouncer]",
    );
    expect(canary.connections).toBe(0);
  });

  it.each([
    ["http://127.0.0.1:CANARY//x/"],
    ["http://[::1]:CANARY//x/"],
    ["http://2130706433:CANARY/"],
    ["http://0.0.0.0:CANARY/"],
    ["http://localhost:CANARY/"],
    ["http://[::ffff:7f00:1]:CANARY/"],
    ["http://[::ffff:127.0.0.1]:CANARY/"],
    ["http://0x7f.1:CANARY/"],
    ["http://127.1:CANARY/"],
    ["http://0177.0.0.1:CANARY/"],
    ["HTTP://127.0.0.1:CANARY/"],
    ["//127.0.0.1:CANARY/protocol-relative"],
    ["/\\127.0.0.1:CANARY/backslash"],
    ["http://public.example.test@127.0.0.1:CANARY/"],
    ["http://127.0.0.1:CANARY\\@public.example.test/"],
  ])("refuses a redirect from a public-looking host to %s", async (template) => {
    // The first hop's name resolves to a public-looking address that the dialer sends to the
    // bouncer; the redirect then points at loopback, which the guard must refuse.
    const dialer = createLoopbackDialer(bouncerPort);
    const dispatcher = createGuardedDispatcher({
      lookup: tableLookup({ "public.example.test": ["93.184.216.34"], localhost: ["127.0.0.1"] }),
      connect: dialer.connect,
    });
    const target = template.replace("CANARY", String(canary.port));
    const error = await refused(`http://public.example.test/to?url=${encodeURIComponent(target)}`, {
      dispatcher,
    });
    expect(error.code).toBe("TOOL_GUARD_REFUSED");
    expect(dialer.dialled).toEqual(["93.184.216.34:80"]);
    expect(canary.connections).toBe(0);
    await dispatcher.close();
  });

  it.each([
    ["file:///etc/passwd"],
    ["data:text/plain,hello"],
    ["ftp://127.0.0.1/secret"],
    ["gopher://127.0.0.1:6379/_INFO"],
    ["javascript:alert(1)"],
  ])("refuses a redirect to the non-http scheme %s", async (location) => {
    const error = await refused(hop(location), { allowPrivateNetwork: true, lookup });
    expect(error.code).toBe("TOOL_FAILED");
    expect(error.message).toMatch(/http:|https:|redirect/);
    expect(canary.connections).toBe(0);
  });

  it("stops a redirect loop and a chain longer than maxRedirects with a clear error", async () => {
    const loop = await refused(`http://bouncer:${bouncerPort}/loop`, { allowPrivateNetwork: true, lookup });
    expect(loop.code).toBe("TOOL_FAILED");
    expect(loop.message).toBe(
      `http_fetch: GET http://bouncer:${bouncerPort}/loop failed: redirect loop (a redirect leads back to a URL ` +
        "already visited)",
    );
    const chain = await refused(`http://bouncer:${bouncerPort}/hop/0`, {
      allowPrivateNetwork: true,
      lookup,
      maxRedirects: 3,
    });
    expect(chain.code).toBe("TOOL_LIMIT_EXCEEDED");
    expect(chain.message).toContain("maxRedirects: 3");
    expect(canary.connections).toBe(0);
  });
});

describe("the connector dials only addresses it checked", () => {
  const refusedAddresses: ReadonlyArray<readonly [string, string]> = [
    ["169.254.169.254", "cloud metadata service"],
    ["10.0.0.1", "private network (10.0.0.0/8)"],
    ["172.16.5.4", "private network (172.16.0.0/12)"],
    ["192.168.1.1", "private network (192.168.0.0/16)"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["198.18.0.1", "benchmarking range"],
    ["192.0.2.1", "documentation range"],
    ["240.0.0.1", "reserved (240.0.0.0/4)"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.251", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["fd00:ec2::254", "unique-local (fc00::/7)"],
    ["fe80::1", "link-local (fe80::/10)"],
    ["fec0::1", "site-local (fec0::/10)"],
    ["ff02::1", "multicast (ff00::/8)"],
    ["::", "unspecified"],
    ["::a9fe:a9fe", "deprecated IPv4-compatible IPv6 address"],
    ["::ffff:a9fe:a9fe", "cloud metadata service (169.254.169.254) embedded in an IPv4-mapped IPv6 address"],
    ["64:ff9b::a9fe:a9fe", "cloud metadata service (169.254.169.254) embedded in a NAT64 address"],
    ["64:ff9b:1::a00:1", "local-use NAT64"],
    ["2002:a9fe:a9fe::1", "cloud metadata service (169.254.169.254) embedded in a 6to4 address"],
    ["2002:0a00:0001::1", "private network (10.0.0.0/8) embedded in a 6to4 address"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo tunnel (2001::/32)"],
    ["2001:db8::1", "documentation range"],
    ["2001:2::1", "benchmarking range (2001:2::/48)"],
    ["3fff::1", "documentation range (3fff::/20)"],
  ];

  it.each(refusedAddresses)(
    "refuses a name resolving to %s (%s) without dialling",
    async (address, reason) => {
      const dialer = createLoopbackDialer(canary.port);
      const asked: string[] = [];
      const dispatcher = createGuardedDispatcher({
        lookup: tableLookup({ "internal.example.test": [address] }, asked),
        connect: dialer.connect,
      });
      const error = await refused("http://internal.example.test/latest/meta-data/", { dispatcher });
      expect(error.code).toBe("TOOL_GUARD_REFUSED");
      expect(error.message).toContain(`it resolves to ${address}, ${reason}`);
      expect(asked).toEqual(["internal.example.test"]);
      expect(dialer.dialled).toEqual([]);
      expect(canary.connections).toBe(0);
      await dispatcher.close();
    },
  );

  it.each(refusedAddresses)("refuses the IP literal %s (%s) without dialling", async (address, reason) => {
    const dialer = createLoopbackDialer(canary.port);
    const dispatcher = createGuardedDispatcher({ lookup: tableLookup({}), connect: dialer.connect });
    const host = address.includes(":") ? `[${address}]` : address;
    const error = await refused(`http://${host}//x/latest/meta-data/`, { dispatcher });
    expect(error.code).toBe("TOOL_GUARD_REFUSED");
    expect(error.message).toContain(reason.split(" embedded")[0]);
    expect(dialer.dialled).toEqual([]);
    expect(canary.connections).toBe(0);
    await dispatcher.close();
  });

  it("dials the checked public address (the positive control for the zeros above)", async () => {
    const dialer = createLoopbackDialer(canary.port);
    const dispatcher = createGuardedDispatcher({
      lookup: tableLookup({ "public.example.test": ["93.184.216.34"] }),
      connect: dialer.connect,
    });
    const result = await fetchText("http://public.example.test/", { dispatcher });
    expect(result.text).toBe("canary");
    expect(dialer.dialled).toEqual(["93.184.216.34:80"]);
    expect(canary.connections).toBe(1);
    await dispatcher.close();
  });

  it("refuses a DNS answer that mixes a public and a private address", async () => {
    const dialer = createLoopbackDialer(canary.port);
    const dispatcher = createGuardedDispatcher({
      lookup: tableLookup({ "mixed.example.test": ["93.184.216.34", "10.1.2.3"] }),
      connect: dialer.connect,
    });
    const error = await refused("http://mixed.example.test/", { dispatcher });
    expect(error.message).toContain("it resolves to 10.1.2.3, private network");
    expect(dialer.dialled).toEqual([]);
    await dispatcher.close();
  });

  it("re-checks on every connection, so a rebinding answer is refused on the next one", async () => {
    const dialer = createLoopbackDialer(canary.port);
    let answers = 0;
    const dispatcher = createGuardedDispatcher({
      lookup: (hostname, options, callback) => {
        answers += 1;
        const address = answers === 1 ? "93.184.216.34" : "127.0.0.1";
        tableLookup({ [hostname]: [address] })(hostname, options, callback);
      },
      connect: dialer.connect,
    });
    expect((await fetchText("http://rebind.example.test/", { dispatcher })).text).toBe("canary");
    const error = await refused("http://rebind.example.test/", { dispatcher });
    expect(error.message).toContain("it resolves to 127.0.0.1, loopback");
    expect(dialer.dialled).toEqual(["93.184.216.34:80"]);
    expect(canary.connections).toBe(1);
    await dispatcher.close();
  });

  it("tries the next checked address when one refuses the connection", async () => {
    // 127.0.0.2 is loopback too, but nothing listens there on the canary's port.
    const lookup = tableLookup({ "two.example.test": ["127.0.0.2", "127.0.0.1"] });
    const result = await fetchText(`http://two.example.test:${canary.port}/`, {
      allowPrivateNetwork: true,
      lookup,
    });
    expect(result.text).toBe("canary");
    expect(canary.connections).toBe(1);
    const refusedAll = await refused(`http://two.example.test:${canary.port}/`, { lookup });
    expect(refusedAll.message).toContain("it resolves to 127.0.0.2, loopback");
  });

  it("keeps the host name for TLS while dialling the checked address", async () => {
    const seen: Array<{ hostname: string; servername: string | null | undefined }> = [];
    const dispatcher = createGuardedDispatcher({
      lookup: tableLookup({ "tls.example.test": ["93.184.216.34"] }),
      connect: (options, callback) => {
        seen.push({ hostname: options.hostname, servername: options.servername });
        callback(new Error("no TLS server in this test"), null);
      },
    });
    await refused("https://tls.example.test/", { dispatcher });
    expect(seen).toEqual([{ hostname: "93.184.216.34", servername: "tls.example.test" }]);
    await dispatcher.close();
  });
});
