// The control UI in a real browser (headless Chromium through playwright-core) against a real
// `clawexec gateway`: how the page is served (CSP and the other headers, ETag/304, the
// WebSocket still at `/`, same-origin upgrades on a non-loopback bind), login (a wrong token
// shows the gateway's refusal, the right one gets in), the approvals queue (an agent's MCP exec
// that needs approval shows up at once; allow once runs it, deny refuses it, allow always
// stores the allowlist entry), hostile command text shown inertly and visibly, and the sessions
// page (a background session's coloured output, kill, its end). Screenshots go to
// <build>/ui-screenshots.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "./lib/harness.mjs";
import { startGateway, connect, connectParams, openWs, mcpAgent, approvalIdOf } from "./lib/gateway.mjs";
import { launchBrowser, login, screenshot } from "./lib/browser.mjs";

let g;
let browser;
before(async () => {
  g = await startGateway({
    config: {
      tools: { exec: { security: "allowlist", ask: "on-miss", approvalRunningNoticeMs: 0 } },
      // The sessions test's agent runs without asking.
      // The highlighting test's agent has commandHighlighting on.
      agents: { entries: { ops: { tools: { exec: { security: "full", ask: "off" } } }, lit: { tools: { exec: { commandHighlighting: true } } } } },
    },
  });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await g?.stop();
});

const agent = (name, agentId = "main") => mcpAgent(g, name, agentId);

/** Waits (at most `ms`) for the approval card of the pending approval `id`. */
const card = (page, id, ms = 1000) => page.waitForSelector(`#approvals-list li[data-id="${id}"]`, { timeout: ms });

describe("serving the control UI", () => {
  test("GET / is the page with a strict CSP and the other security headers; assets typed; ETag gives 304", async () => {
    const r = await fetch(`${g.url}/`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("content-type"), "text/html; charset=utf-8");
    const csp = r.headers.get("content-security-policy");
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self';/);
    assert.match(csp, /style-src 'self';/);
    assert.match(csp, /connect-src 'self' ws:\/\/127\.0\.0\.1:\d+;/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.equal(r.headers.get("x-frame-options"), "DENY");
    assert.equal(r.headers.get("referrer-policy"), "no-referrer");
    assert.equal(r.headers.get("x-content-type-options"), "nosniff");
    assert.equal(r.headers.get("set-cookie"), null);
    const html = await r.text();
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, "no inline script");
    assert.doesNotMatch(html, /<style|\sstyle=/, "no inline style");
    const js = await fetch(`${g.url}/ui/app.js`);
    assert.equal(js.headers.get("content-type"), "text/javascript; charset=utf-8");
    const css = await fetch(`${g.url}/ui/app.css`);
    assert.equal(css.headers.get("content-type"), "text/css; charset=utf-8");
    const etag = js.headers.get("etag");
    assert.match(etag, /^"[0-9a-f]{32}"$/);
    const again = await fetch(`${g.url}/ui/app.js`, { headers: { "If-None-Match": etag } });
    assert.equal(again.status, 304);
    assert.equal((await fetch(`${g.url}/ui/missing.js`)).status, 404);
    // The operator WebSocket is still at `/`.
    const op = await connect(g.wsUrl, connectParams(g.token, { scopes: ["operator.read"] }));
    assert.equal(op.res.ok, true);
    op.ws.close();
  });

  test("on a non-loopback bind a page's own origin may open the WebSocket; another origin may not", async () => {
    const lan = await startGateway({ config: { gateway: { bind: "lan" } } });
    try {
      const port = new URL(lan.url).port;
      const page = await fetch(`http://127.0.0.1:${port}/`, { headers: { Origin: `http://127.0.0.1:${port}` } });
      assert.equal(page.status, 200);
      const same = await connect(`ws://127.0.0.1:${port}/`, connectParams(lan.token), { headers: { Origin: `http://127.0.0.1:${port}` } });
      assert.equal(same.res.ok, true, JSON.stringify(same.res));
      same.ws.close();
      for (const origin of [`http://evil.example:${port}`, `https://127.0.0.1:${port}`, `http://127.0.0.1:${Number(port) + 1}`]) {
        const other = openWs(`ws://127.0.0.1:${port}/`, { headers: { Origin: origin } });
        const status = await new Promise((resolve) => {
          other.ws.on("unexpected-response", (_req, res) => resolve(res.statusCode));
          other.ws.on("open", () => resolve("open"));
        });
        assert.equal(status, 403, origin);
      }
    } finally {
      await lan.stop();
    }
  });
});

describe("login", () => {
  test("a wrong token shows the gateway's refusal; the right one gets in and is kept for this tab only", async () => {
    const page = await browser.page();
    await page.goto(`${g.url}/`);
    await page.fill("#secret", "not-the-token");
    await page.click("#login-submit");
    await page.waitForSelector("#login-error:not([hidden])");
    assert.equal(await page.getAttribute("#login-error", "data-kind"), "auth");
    assert.match(await page.textContent("#login-error-text"), /unauthorized: gateway token mismatch/);
    assert.equal(await page.isVisible("#nav"), false, "no navigation before login");
    await screenshot(page, "login-refused");
    await login(page, g.url, g.token);
    assert.equal(await page.isVisible("#nav"), true);
    assert.match(await page.textContent("#conn-state"), /connected/);
    assert.equal(await page.evaluate(() => document.cookie), "");
    assert.equal(await page.evaluate(() => localStorage.length), 0);
    assert.match(await page.evaluate(() => sessionStorage.getItem("clawexec.gateway.secret")), new RegExp(g.token));
    // A reload in the same tab logs in again from sessionStorage.
    await page.reload();
    await page.waitForSelector("#page-approvals:not([hidden])");
    assert.deepEqual(page.errors, []);
    await page.close();
  });
});

describe("approvals", () => {
  test("an agent's exec needing approval appears within a second; allow once runs it and the agent gets its output", async () => {
    const page = await browser.page();
    await login(page, g.url, g.token);
    const a = await agent("ui-allow");
    const r = await a.exec({ command: "printf 'ui-%s\\n' allowed-output" });
    const id = approvalIdOf(r);
    const el = await card(page, id);
    // The gateway's display escaping doubles the backslash that precedes "n".
    assert.match(await el.$eval("code.cmd", (c) => c.textContent), /^printf 'ui-%s\\\\n' allowed-output$/);
    const buttons = await el.$$eval("button[data-decision]", (bs) => bs.map((b) => b.dataset.decision));
    assert.deepEqual(buttons, ["allow-once", "allow-always", "deny"]);
    assert.match(await el.$eval(".time-left", (e) => e.textContent), /time left \d+:\d\d/);
    await screenshot(page, "approvals-pending");
    await el.$eval('button[data-decision="allow-once"]', (b) => b.click());
    const done = await waitFor(() => a.notes.find((n) => /ui-allowed-output/.test(n)), 10000, "the approved run's output");
    assert.match(done, /Exec (finished|completed)/);
    await page.waitForSelector(`#resolved-list li[data-id="${id}"] .outcome-allow-once`);
    assert.equal(await page.$(`#approvals-list li[data-id="${id}"]`), null);
    await a.close();
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test("an approval arriving while the tab is hidden raises a browser notification", async () => {
    await browser.context.grantPermissions(["notifications"], { origin: g.url });
    const page = await browser.page();
    // Record what the page shows as notifications, and make the tab hidden.
    await page.addInitScript(() => {
      const Real = window.Notification;
      window.__shown = [];
      window.Notification = class extends Real {
        constructor(title, options) {
          super(title, options);
          window.__shown.push({ title, body: options?.body, tag: options?.tag });
        }
        static get permission() {
          return Real.permission;
        }
        static requestPermission() {
          return Real.requestPermission();
        }
      };
    });
    await login(page, g.url, g.token);
    assert.equal(await page.isVisible("#notify-enable"), false, "permission already granted");
    await page.evaluate(() => Object.defineProperty(document, "hidden", { configurable: true, get: () => true }));
    const a = await agent("ui-notify");
    const r = await a.exec({ command: "echo notify-me" });
    const id = /full ([0-9a-f-]{36})/.exec(r.content[0].text)[1];
    await card(page, id);
    const shown = await page.evaluate(() => window.__shown);
    assert.deepEqual(shown, [{ title: "Exec approval needed", body: "echo notify-me", tag: id }]);
    await (await card(page, id)).$eval('button[data-decision="deny"]', (b) => b.click());
    await page.waitForSelector(`#resolved-list li[data-id="${id}"]`);
    assert.deepEqual(page.errors, []);
    await a.close();
    await page.close();
  });

  test("deny gives the agent the denial and the command does not run", async () => {
    const page = await browser.page();
    await login(page, g.url, g.token);
    const a = await agent("ui-deny");
    const r = await a.exec({ command: "echo ui-denied-run" });
    const id = /full ([0-9a-f-]{36})/.exec(r.content[0].text)[1];
    const el = await card(page, id);
    await el.$eval('button[data-decision="deny"]', (b) => b.click());
    const denied = await waitFor(() => a.notes.find((n) => n.startsWith("Exec denied")), 10000, "Exec denied");
    assert.match(denied, new RegExp(`id=${id}, user-denied\\): echo ui-denied-run`));
    assert.ok(!a.notes.some((n) => /Exec (finished|completed)/.test(n)));
    await page.waitForSelector(`#resolved-list li[data-id="${id}"] .outcome-deny`);
    await a.close();
    await page.close();
  });

  test("allow always stores the allowlist entry; the same program then runs without asking", async () => {
    const page = await browser.page();
    await login(page, g.url, g.token);
    const a = await agent("ui-always");
    const r = await a.exec({ command: "uname -s" });
    const id = /full ([0-9a-f-]{36})/.exec(r.content[0].text)[1];
    const el = await card(page, id);
    await el.$eval('button[data-decision="allow-always"]', (b) => b.click());
    await waitFor(() => a.notes.find((n) => n.startsWith("Exec finished")), 10000, "Exec finished");
    const doc = JSON.parse(readFileSync(join(g.state.dir, "exec-approvals.json"), "utf8"));
    assert.ok(doc.agents.main.allowlist.some((e) => /\/uname$/.test(e.pattern)), JSON.stringify(doc.agents.main.allowlist));
    await page.waitForSelector(`#resolved-list li[data-id="${id}"] .outcome-allow-always`);
    const again = await a.exec({ command: "uname -s" });
    assert.match(again.content[0].text, /Linux/);
    await a.close();
    await page.close();
  });

  test("a command with an ANSI escape, a bidi override and an HTML tag is shown inertly and visibly", async () => {
    const page = await browser.page();
    await login(page, g.url, g.token);
    const a = await agent("ui-hostile");
    const hostile = "echo \x1b[31mred \u202Eevil <img src=x onerror=\"window.pwned=1\">";
    const r = await a.exec({ command: hostile });
    const id = /full ([0-9a-f-]{36})/.exec(r.content[0].text)[1];
    const el = await card(page, id);
    const shown = await el.$eval("code.cmd", (c) => c.textContent);
    assert.match(shown, /<img src=x onerror="window\.pwned=1">/, "the tag is text");
    assert.ok(!shown.includes("\x1b") && !shown.includes("\u202E"), `no raw escape or override in ${JSON.stringify(shown)}`);
    assert.match(shown, /\\x1b|\\e|ESC|U\+001B|\\u\{?1b\}?/i, `the escape is visible in ${JSON.stringify(shown)}`);
    assert.match(shown, /202E|RLO/i, `the override is visible in ${JSON.stringify(shown)}`);
    assert.equal(await page.$$eval("img", (imgs) => imgs.length), 0);
    assert.equal(await page.evaluate(() => window.pwned), undefined);
    await screenshot(page, "approvals-hostile-command");
    await el.$eval('button[data-decision="deny"]', (b) => b.click());
    await page.waitForSelector(`#resolved-list li[data-id="${id}"]`);
    assert.deepEqual(page.errors, []);
    await a.close();
    await page.close();
  });
});

describe("highlighting", () => {
  test("with commandHighlighting the card emphasises each executable the analysis found, as text", async () => {
    const page = await browser.page();
    await login(page, g.url, g.token);
    const a = await agent("ui-lit", "lit");
    const command = "ls -la /tmp | grep -c x";
    const id = approvalIdOf(await a.exec({ command }));
    const el = await card(page, id);
    assert.equal(await el.$eval("code.cmd", (c) => c.textContent), command);
    assert.deepEqual(await el.$$eval("code.cmd b.exe", (bs) => bs.map((b) => b.textContent)), ["ls", "grep"]);
    await el.$eval('button[data-decision="deny"]', (b) => b.click());
    await page.waitForSelector(`#resolved-list li[data-id="${id}"] .outcome-deny`);
    // Without the setting no spans come, and the command is one text.
    const plain = await agent("ui-plain");
    const id2 = approvalIdOf(await plain.exec({ command }));
    const el2 = await card(page, id2);
    assert.equal(await el2.$$eval("code.cmd b.exe", (bs) => bs.length), 0);
    await el2.$eval('button[data-decision="deny"]', (b) => b.click());
    await a.close();
    await plain.close();
    await page.close();
  });
});

describe("layout", () => {
  test("at phone width the approvals and sessions pages do not scroll sideways, and the buttons stay reachable", async () => {
    const page = await browser.page();
    await page.setViewportSize({ width: 390, height: 800 });
    await login(page, g.url, g.token);
    const a = await agent("ui-phone");
    const r = await a.exec({ command: `ls ${"/a-rather-long-directory-name".repeat(6)}` });
    const id = /full ([0-9a-f-]{36})/.exec(r.content[0].text)[1];
    const el = await card(page, id, 5000);
    const width = () => page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok((await width()) <= 390, `page width ${await width()}`);
    const deny = await el.$('button[data-decision="deny"]');
    const box = await deny.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, JSON.stringify(box));
    await screenshot(page, "approvals-phone");
    await deny.click();
    await page.waitForSelector(`#resolved-list li[data-id="${id}"]`);
    await page.click('nav a[data-page="sessions"]');
    await page.waitForSelector("#page-sessions:not([hidden])");
    assert.ok((await width()) <= 390, `sessions page width ${await width()}`);
    await a.close();
    await page.close();
  });
});

describe("showing output", () => {
  test("ANSI colours become classes, other sequences vanish, split sequences are carried, hidden characters show", async () => {
    const page = await browser.page();
    await page.goto(`${g.url}/`);
    const html = await page.evaluate(async () => {
      const { AnsiRenderer } = await import("/ui/text.js");
      const pre = document.createElement("pre");
      const r = new AnsiRenderer(pre);
      for (const chunk of ["plain \x1b[1;3", "1mbold-red\x1b[0m \x1b[2K\x1b]0;title\x07", "after\u202Eflip <b>x</b>\r\n\x1b[92", "mbright\x1b[m\n"]) {
        pre.append(r.render(chunk));
      }
      return pre.innerHTML;
    });
    assert.equal(html, 'plain <span class="b f1">bold-red</span> after<span class="esc" title="U+202E">⟨RLO⟩</span>flip &lt;b&gt;x&lt;/b&gt;\n<span class="f10">bright</span>\n');
    await page.close();
  });
});

describe("sessions", () => {
  test("a running background session is listed, its coloured output followed live; kill ends it", async () => {
    const page = await browser.page();
    await login(page, g.url, g.token);
    const a = await agent("ui-sessions", "ops");
    const r = await a.exec({ command: "printf '\\033[32mgreen-line\\033[0m\\n'; i=0; while true; do i=$((i+1)); echo tick-$i; sleep 0.2; done", background: true });
    assert.match(r.content[0].text, /Command still running \(session [a-z0-9-]+/);
    await page.goto(`${g.url}/#sessions`);
    await page.waitForSelector("#page-sessions:not([hidden])");
    const row = await page.waitForSelector('#sessions-body tr[data-status="running"]', { timeout: 10000 });
    assert.match(await row.textContent(), /green-line|tick/);
    await row.click();
    // The gateway strips escape sequences from session output (as for the agent) and sends the
    // colour beside the text: the text stays, nothing raw reaches the page.
    await page.waitForFunction(() => /^green-line\ntick-1\n/.test(document.getElementById("session-log").textContent), null, { timeout: 10000 });
    assert.equal(await page.$eval("#session-log", (el) => el.firstChild.className), "f2", "green-line in green (tests/mcp/ui_ansi.test.mjs has the rest)");
    // New output keeps arriving (follow events), not only the first page.
    await page.waitForFunction(() => /tick-(1\d|[2-9]\d)/.test(document.getElementById("session-log").textContent), null, { timeout: 15000 });
    assert.ok(!(await page.textContent("#session-log")).includes("\x1b"), "no raw escape in the log");
    await screenshot(page, "sessions-live-log");
    await page.click("#session-kill");
    await page.waitForFunction(() => /session ended/.test(document.getElementById("session-result").textContent), null, { timeout: 15000 });
    await page.waitForFunction(() => !document.querySelector('#sessions-body tr[data-status="running"]'), null, { timeout: 10000 });
    assert.deepEqual(page.errors, []);
    await a.close();
    await page.close();
  });

  test("a long log is paged (last 500 lines first, earlier pages on demand); typed input starts 10 000 more lines that the page follows", async () => {
    const page = await browser.page();
    await login(page, g.url, g.token);
    const a = await agent("ui-paging", "ops");
    const r = await a.exec({ command: "seq 1 1200; read x; seq 10001 20000; sleep 60", background: true, pty: true });
    const sessionId = /session ([a-z0-9-]+)/.exec(r.content[0].text)[1];
    await page.goto(`${g.url}/#sessions`);
    const row = await page.waitForSelector(`#sessions-body tr[data-session-id="${sessionId}"]`, { timeout: 10000 });
    await row.focus();
    await page.keyboard.press("Enter");  // rows open from the keyboard too
    const logText = () => page.textContent("#session-log");
    await page.waitForFunction(() => /\n1200\n/.test(document.getElementById("session-log").textContent), null, { timeout: 10000 });
    const first = Number(/^\d+/.exec(await logText())[0]);
    assert.ok(first > 600 && first <= 701, `the first page starts at line ${first}`);
    await page.click("#log-earlier");
    await page.waitForFunction((n) => Number(/^\d+/.exec(document.getElementById("session-log").textContent)?.[0]) < n, first);
    await page.click("#log-earlier");
    await page.waitForFunction(() => document.getElementById("session-log").textContent.startsWith("1\n2\n3\n"));
    assert.equal(await page.isDisabled("#log-earlier"), true, "nothing before line 1");
    await page.fill("#session-text", "go");
    await page.click('#session-input button[type="submit"]');
    await page.waitForFunction(() => /\n20000\n/.test(document.getElementById("session-log").textContent), null, { timeout: 30000 });
    const started = Date.now();
    await page.evaluate(() => document.getElementById("session-log").childNodes.length);
    assert.ok(Date.now() - started < 1000, "the page answers at once after 10 000 lines");
    const text = await logText();
    for (const n of [10001, 15000, 19999]) assert.ok(text.includes(`\n${n}\n`), `line ${n} shown`);
    await page.click("#session-kill");
    await page.waitForFunction(() => /session ended/.test(document.getElementById("session-result").textContent), null, { timeout: 15000 });
    assert.deepEqual(page.errors, []);
    await a.close();
    await page.close();
  });
});
