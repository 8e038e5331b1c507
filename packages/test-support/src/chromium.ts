import { type Browser, chromium } from "playwright-core";
import { CHROMIUM_PATH } from "./services.js";

/** Headless Chromium in a container: no sandbox (it runs as root there), no GPU, no calls home. */
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

/**
 * Starts headless Chromium from `CHROMIUM_PATH`, the way every browser test of the repository
 * does; the caller closes it. Check `browserAvailable()` first, so a machine without Chromium
 * skips (or, with `CI=true`, fails) instead of failing to launch.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}
