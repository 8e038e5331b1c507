import { isIP } from "node:net";
import { LlmToolsError } from "../errors.js";

/** A host allowlist prepared for matching: lower-case host names, IPv6 without brackets. */
export type HostAllowlist = ReadonlySet<string>;

/**
 * Checks and normalises `hostAllowlist` entries: bare host names or IP literals, matched exactly
 * and case-insensitively. An entry with a scheme, port, path or wildcard is an error.
 */
export function prepareHostAllowlist(entries: readonly unknown[], toolName: string): HostAllowlist {
  const hosts = new Set<string>();
  for (const [index, entry] of entries.entries()) {
    if (typeof entry !== "string" || entry.trim() === "") {
      throw optionError(
        toolName,
        `hostAllowlist[${index}] must be a non-empty host name (found ${String(entry)})`,
      );
    }
    const host = normalizeHost(entry.trim());
    if (isIP(host) === 0 && !/^[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?$/.test(host)) {
      throw optionError(
        toolName,
        `hostAllowlist[${index}] must be a bare host name such as 'api.example.com' ` +
          `(no scheme, port, path or wildcard; found '${entry}')`,
      );
    }
    hosts.add(host);
  }
  return hosts;
}

/** Lower-cases a host, drops IPv6 brackets and one trailing dot, so equal hosts compare equal. */
export function normalizeHost(host: string): string {
  let normalized = host.toLowerCase();
  if (normalized.startsWith("[") && normalized.endsWith("]")) normalized = normalized.slice(1, -1);
  return normalized.endsWith(".") ? normalized.slice(0, -1) : normalized;
}

/** True when the allowlist is empty (no restriction) or holds this host exactly. */
export function isHostAllowed(allowlist: HostAllowlist, hostname: string): boolean {
  return allowlist.size === 0 || allowlist.has(normalizeHost(hostname));
}

function optionError(toolName: string, message: string): LlmToolsError {
  return new LlmToolsError("TOOL_OPTION_INVALID", toolName, `${toolName}: option ${message}`);
}
