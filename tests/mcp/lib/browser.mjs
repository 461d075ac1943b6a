// Headless Chromium (Debian's /usr/bin/chromium) driven by playwright-core for the control UI
// tests: a fresh profile per browser, nothing reaching the network (the flags turn off every
// background fetch), and screenshots saved into the build directory.
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { CLAWEXEC, scratchDir } from "./harness.mjs";

export const CHROMIUM = process.env.CLAWEXEC_CHROMIUM ?? "/usr/bin/chromium";
/** Where screenshots go: <build>/ui-screenshots (CLAWEXEC_BIN is <build>/bin/clawexec). */
export const SCREENSHOTS = join(dirname(dirname(CLAWEXEC)), "ui-screenshots");

/** Launches Chromium with a fresh profile (plus `args`); returns { context, page(), close() }. */
export async function launchBrowser({ viewport = { width: 1100, height: 800 }, args = [] } = {}) {
  const profile = scratchDir("clawexec-chromium-");
  const context = await chromium.launchPersistentContext(profile.dir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    timeout: 60000,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync", ...args],
  });
  context.setDefaultTimeout(20000);
  return {
    context,
    async page() {
      const p = await context.newPage();
      p.errors = [];
      p.on("pageerror", (e) => p.errors.push(String(e)));
      p.on("dialog", (d) => {
        p.errors.push(`dialog opened: ${d.message()}`);
        d.dismiss().catch(() => {});
      });
      return p;
    },
    async close() {
      await context.close();
      profile.cleanup();
    },
  };
}

export async function screenshot(page, name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Opens the UI at `url` and logs in with `secret`; waits for the approvals page. */
export async function login(page, url, secret) {
  await page.goto(url + "/");
  await page.fill("#secret", secret);
  await page.click("#login-submit");
  await page.waitForSelector("#page-approvals:not([hidden])");
}
