// Colours in the control UI's session logs, in a real browser against a real gateway. Command
// output is recorded with its escape sequences stripped (what the agent reads, as in OpenClaw);
// the gateway keeps the SGR colours it stripped beside the text and sends them as `styles`
// with `clawexec.sessions.log` and `clawexec.session.output`. Checked here: the wire shape, the
// page's coloured spans for the first log page, earlier pages and followed output (a colour
// begun in one chunk goes on in the next), that the agent's own `process log` still has no
// escape and no styles, and — the attack side — that hyperlinks, titles, cursor movement,
// conceal and same-colour text change nothing on the page beyond colour.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { waitFor } from "./lib/harness.mjs";
import { startGateway, mcpAgent, operator } from "./lib/gateway.mjs";
import { launchBrowser, login, screenshot } from "./lib/browser.mjs";

let g;
let browser;
before(async () => {
  g = await startGateway({ config: { agents: { entries: { ops: { tools: { exec: { security: "full", ask: "off" } } } } } } });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await g?.stop();
});

async function background(a, command, extra = {}) {
  const r = await a.exec({ command, background: true, ...extra });
  const id = /session ([a-z0-9-]+)/.exec(r.content[0].text)?.[1];
  assert.ok(id, r.content[0].text);
  return id;
}

const processLog = (a, sessionId) => a.client.callTool({ name: "process", arguments: { action: "log", sessionId } });

async function openSession(page, sessionId) {
  await page.goto(`${g.url}/#sessions`);
  const row = await page.waitForSelector(`#sessions-body tr[data-session-id="${sessionId}"]`, { timeout: 10000 });
  await row.click();
}

/** [text, className] for each top-level piece of the log (text nodes have className null). */
const pieces = (page) =>
  page.evaluate(() => [...document.getElementById("session-log").childNodes].map((n) => [n.textContent, n.nodeType === 1 ? n.className : null]));

const classOf = (list, text) => list.find(([t]) => t.includes(text))?.[1];

describe("session log colours", () => {
  test("an SGR-coloured background command shows its colours; the agent's log has no escape and no styles", async () => {
    const a = await mcpAgent(g, "ui-ansi", "ops");
    const sid = await background(a, "printf '\\033[31mred\\033[0m plain \\033[1;32mgreen\\033[0m\\n'; read x; printf '\\033[34mblue-'; sleep 0.5; printf 'later\\033[0m done\\n'; sleep 30", { pty: true });
    await waitFor(async () => /green/.test((await processLog(a, sid)).content[0].text), 5000, "the first line");

    // The wire: styles as [offset in UTF-16 units of `output`, params].
    const op = await operator(g, ["operator.read"]);
    const log = await op.call("clawexec.sessions.log", { sessionId: sid });
    assert.match(log.payload.output, /^red plain green/);
    assert.deepEqual(log.payload.styles, [[0, "31"], [3, "0"], [10, "1;32"], [15, "0"]]);
    op.ws.close();

    // The agent: OpenClaw's text, no escapes, no styles in its details.
    const agentLog = await processLog(a, sid);
    assert.equal(agentLog.content[0].text.includes("\x1b"), false);
    assert.match(agentLog.content[0].text, /^red plain green/);
    const whole = JSON.stringify(agentLog);
    assert.equal(whole.includes('"styles"'), false, whole);
    assert.equal(whole.includes("\\u001b"), false, whole);

    const page = await browser.page();
    await login(page, g.url, g.token);
    await openSession(page, sid);
    await page.waitForFunction(() => /green/.test(document.getElementById("session-log").textContent), null, { timeout: 10000 });
    let list = await pieces(page);
    assert.equal(classOf(list, "red"), "f1");
    assert.equal(classOf(list, "plain"), null, "plain text is not styled");
    assert.equal(classOf(list, "green"), "b f2");

    // Followed output: blue starts in one chunk and goes on in the next.
    await page.fill("#session-text", "go");
    await page.click('#session-input button[type="submit"]');
    await page.waitForFunction(() => /later done/.test(document.getElementById("session-log").textContent), null, { timeout: 10000 });
    list = await pieces(page);
    assert.equal(classOf(list, "blue-"), "f4");
    assert.equal(classOf(list, "later"), "f4", JSON.stringify(list));
    assert.equal(classOf(list, " done"), null);
    assert.equal((await page.textContent("#session-log")).includes("\x1b"), false);
    await screenshot(page, "sessions-ansi-colours");
    assert.deepEqual(page.errors, []);
    await page.click("#session-kill");
    await a.close();
    await page.close();
  });

  test("a colour set before the first page carries into it and into the earlier pages", async () => {
    const a = await mcpAgent(g, "ui-ansi-pages", "ops");
    const sid = await background(a, "printf '\\033[35m'; seq 1 700; printf '\\033[0mend\\n'; sleep 30");
    await waitFor(async () => /end/.test((await processLog(a, sid)).content[0].text), 5000, "the output");
    const page = await browser.page();
    await login(page, g.url, g.token);
    await openSession(page, sid);
    await page.waitForFunction(() => /\nend\n/.test(document.getElementById("session-log").textContent), null, { timeout: 10000 });
    let list = await pieces(page);
    // The page begins at line 202, magenta from a mark 201 lines earlier.
    assert.match(list[0][0], /^202\n/);
    assert.equal(list[0][1], "f5");
    assert.equal(classOf(list, "end"), null);
    await page.click("#log-earlier");
    await page.waitForFunction(() => document.getElementById("session-log").textContent.startsWith("1\n2\n"));
    list = await pieces(page);
    assert.equal(list[0][1], "f5", JSON.stringify(list.slice(0, 3)));
    assert.match(list[0][0], /^1\n2\n/);
    assert.deepEqual(page.errors, []);
    await page.click("#session-kill");
    await a.close();
    await page.close();
  });
});

describe("attacks through colours", () => {
  test("hyperlinks, titles, cursor movement, conceal and same-colour text change nothing beyond colour", async () => {
    const a = await mcpAgent(g, "ui-ansi-attack", "ops");
    const huge = "1".repeat(200);
    const script = [
      "printf 'a \\033]8;;http://evil.example/\\033\\\\link-text\\033]8;;\\033\\\\ b\\n'",
      "printf '\\033]0;pwned-title\\007c \\033[2J\\033[H\\033[3A\\033[10Cup\\n'",
      "printf '\\033[8mconcealed\\033[0m \\033[30;40mblack-on-black\\033[0m \\033[37;47mwhite-on-white\\033[0m\\n'",
      "printf '\\033[?1mprivate \\033[>4mmarker \\033[1;31;5;7mblink \\033[38;2;1;2;3mtrue\\033[0m\\n'",
      `printf '\\033[${huge}mhuge\\033[0m \\033[31\\001mctl\\033[0m\\n'`,
      "sleep 30",
    ].join("; ");
    const sid = await background(a, script);
    await waitFor(async () => /ctl/.test((await processLog(a, sid)).content[0].text), 5000, "the output");
    const agentText = (await processLog(a, sid)).content[0].text;
    assert.equal(agentText.includes("\x1b"), false);

    const page = await browser.page();
    await login(page, g.url, g.token);
    const title = await page.title();
    await openSession(page, sid);
    await page.waitForFunction(() => /ctl/.test(document.getElementById("session-log").textContent), null, { timeout: 10000 });
    const shown = await page.evaluate(() => {
      const log = document.getElementById("session-log");
      const hidden = [];
      for (const el of log.querySelectorAll("*")) {
        const cs = getComputedStyle(el);
        const bg = cs.backgroundColor;
        if (cs.visibility !== "visible" || cs.display === "none" || Number(cs.opacity) < 0.5 ||
            (bg !== "rgba(0, 0, 0, 0)" && bg === cs.color)) {
          hidden.push(el.outerHTML);
        }
      }
      return { text: log.textContent, links: log.querySelectorAll("a").length, hidden, html: log.innerHTML };
    });
    // Exactly the agent's text (the page adds the final newline), nothing hidden, no link.
    assert.equal(shown.text, agentText + "\n");
    assert.equal(shown.links, 0);
    assert.deepEqual(shown.hidden, []);
    assert.equal(await page.title(), title);
    const list = await pieces(page);
    assert.equal(classOf(list, "concealed"), null, "conceal is not honoured");
    assert.equal(classOf(list, "black-on-black"), "g0", "the foreground gives way on its own background");
    assert.equal(classOf(list, "white-on-white"), "g7");
    assert.equal(classOf(list, "private"), null);
    assert.equal(classOf(list, "marker"), null);
    assert.equal(classOf(list, "blink"), "b f1");
    assert.equal(classOf(list, "huge"), null);
    assert.equal(classOf(list, "ctl"), "f1", "a control inside the SGR is shown as text, the colour still applies");
    assert.match(shown.html, /\\x01/);
    await screenshot(page, "sessions-ansi-attack");
    assert.deepEqual(page.errors, []);
    await page.click("#session-kill");
    await a.close();
    await page.close();
  });

  test("the renderer ignores marks that are not SGR parameters and offsets that go backwards", async () => {
    const page = await browser.page();
    await page.goto(`${g.url}/`);
    const html = await page.evaluate(async () => {
      const { AnsiRenderer } = await import("/ui/text.js");
      const pre = document.createElement("pre");
      const r = new AnsiRenderer(pre);
      pre.append(r.render("abcdef", [[0, "31"], [1, "0m\x1b]8;;x\x07"], [2, "<b>"], [4, "0"], [1, "32"], ["5", "33"], [5, "1".repeat(49)], null, [5], [5, "1", "x"]]));
      pre.append(r.render("x\u{1F600}y", [[2, "34"]]));  // inside the surrogate pair: moved after it
      return pre.innerHTML;
    });
    assert.equal(html, '<span class="f1">abcd</span>ef' + "x\u{1F600}" + '<span class="f4">y</span>');
    await page.close();
  });

  test("256-colour and true-colour SGRs show as the nearest basic colour", async () => {
    const page = await browser.page();
    await page.goto(`${g.url}/`);
    const html = await page.evaluate(async () => {
      const { AnsiRenderer } = await import("/ui/text.js");
      const pre = document.createElement("pre");
      const r = new AnsiRenderer(pre);
      // 196 pure red, 46 pure green, 21 blue, 244 mid grey, 255 near white; true colour
      // orange-red, a dark navy background; out-of-range values are ignored.
      pre.append(r.render("abcdefgh", [[0, "38;5;196"], [1, "38;5;46"], [2, "38;5;21"], [3, "38;5;244"], [4, "38;5;255"],
        [5, "38;2;250;60;10"], [6, "0;48;2;0;0;100;38;5;9"], [7, "0;38;2;300;0;0"]]));
      return pre.innerHTML;
    });
    assert.equal(html, '<span class="f9">a</span><span class="f10">b</span><span class="f12">c</span>' +
      '<span class="f7">d</span><span class="f15">e</span><span class="f9">f</span><span class="f9 g0">g</span>h');
    await page.close();
  });
});
