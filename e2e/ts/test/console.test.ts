// The web console in headless Chromium (Debian's `chromium`, driven by
// playwright-core): a user signs in, starts a refund job, sees it pause,
// answers in the waiting widget (a refused answer shows its message on the
// field), cannot approve her own refund, and a supervisor approves the exact
// call on its approval card; the job completes. Then the operator's pages:
// every job across skills (live, filtered), the inbox, tools by policy,
// a solution's grants and handoffs. Screenshots of each page go to
// e2e/ts/test-results/ (each path is printed).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { chromium, type Browser, type Page } from "playwright-core";

import { OrchestratorService, apiKeyInterceptor } from "@adas/client";

import { adasUp, binary, type Running } from "./suite.js";

const results = resolve(fileURLToPath(import.meta.url), "../../../test-results");
const repo = resolve(fileURLToPath(import.meta.url), "../../../../..");
let suite: Running;
let browser: Browser;
const keys: Record<string, string> = {};

function createKey(authFile: string, name: string, roles: string[]): string {
  const args = ["auth", "key", "create", "--auth-file", authFile, "--name", name, "--tenant", "default"];
  for (const role of roles) args.push("--role", role);
  return execFileSync(binary("adas"), args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
}

before(async () => {
  mkdirSync(results, { recursive: true });
  const authFile = join(mkdtempSync(join(tmpdir(), "adas-console-")), "auth.json");
  keys.ann = createKey(authFile, "ann", ["user"]);
  keys.sam = createKey(authFile, "sam", ["supervisor", "operator"]);
  keys.admin = createKey(authFile, "root", ["admin"]);
  suite = await adasUp(["--auth-file", authFile, "--console-listen", "127.0.0.1:0"]);
  browser = await chromium.launch({
    executablePath: process.env.ADAS_CHROMIUM ?? "/usr/bin/chromium",
    // Root in CI containers: Chromium's sandbox needs user namespaces it may not have.
    args: ["--no-sandbox"],
  });
});

after(async () => {
  await browser?.close();
  assert.equal(await suite.stop(), 0, "adas up exits 0 on SIGTERM");
});

async function signIn(who: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${suite.console}/skills`);
  assert.match(page.url(), /\/login$/, "signing in comes first");
  await page.fill("input[name=key]", keys[who]);
  await page.click("button[type=submit]");
  // An operator's day starts with the jobs.
  await page.waitForURL(/\/jobs$/);
  return page;
}

async function shot(page: Page, name: string) {
  const path = join(results, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  // In the test output: where each page's picture is.
  console.log(`screenshot: ${path}`);
}

test("every page says who is signed in, in which tenant, with which roles", async () => {
  const sam = await signIn("sam");
  for (const path of ["/jobs", "/inbox", "/skills", "/solutions"]) {
    await sam.goto(`${suite.console}${path}`);
    assert.equal((await sam.textContent("header .who .principal"))?.trim(), "sam", path);
    assert.equal((await sam.textContent("header .who .tenant"))?.trim(), "default", path);
    assert.equal((await sam.textContent("header .who .roles"))?.trim(), "supervisor, operator", path);
  }
  await shot(sam, "0-signed-in-as");
  const ann = await signIn("ann");
  assert.equal((await ann.textContent("header .who .roles"))?.trim(), "user");
});

test("the client package's API key interceptor signs calls as the key's principal", async () => {
  const transport = createGrpcTransport({ baseUrl: `http://${suite.address}`, interceptors: [apiKeyInterceptor(keys.sam)] });
  const caller = await createClient(OrchestratorService, transport).getCaller({});
  assert.deepEqual([caller.name, caller.tenant, caller.roles], ["sam", "default", ["supervisor", "operator"]]);
  const anonymous = createClient(OrchestratorService, createGrpcTransport({ baseUrl: `http://${suite.address}` }));
  const refused = await anonymous.getCaller({}).then(
    () => undefined,
    (e: unknown) => ConnectError.from(e),
  );
  assert.equal(refused?.code, Code.Unauthenticated);
});

test("a wrong key is refused at sign-in", async () => {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${suite.console}/login`);
  await page.fill("input[name=key]", "adas_not-a-real-key");
  await page.click("button[type=submit]");
  await page.waitForURL(/\/login\?error=/);
  assert.match(await page.textContent("p.error") ?? "", /did not accept|not an API key/);
});

test("start, pause, answer in the widget, approve, complete", async () => {
  // The admin opens the template once: it is then in service with its diagnostics and tools.
  const admin = await signIn("admin");
  await admin.goto(`${suite.console}/skills`);
  await admin.click("table.templates a[href='/skills/cs-tier-1']");
  await admin.waitForSelector("table.diagnostics");
  const tools = await admin.locator("table.tools").textContent();
  assert.match(tools ?? "", /process_refund/);
  assert.match(tools ?? "", /check_order_status/);
  await shot(admin, "1-skill");

  const ann = await signIn("ann");
  await ann.goto(`${suite.console}/skills/cs-tier-1`);
  await ann.fill("input[name=goal]", "I want a refund");
  await ann.click("form.start button");
  await ann.waitForURL(/\/skills\/cs-tier-1\/jobs\/j/);
  const jobUrl = ann.url();

  // Live: the page follows the job (WatchJob) until the widget appears.
  const widget = ann.locator("form.widget");
  await widget.waitFor();
  assert.equal(await widget.getAttribute("data-reason"), "MISSING_REQUIRED_INPUT");
  assert.match(await ann.textContent("#status") ?? "", /paused/);
  assert.ok((await ann.textContent("p.prompt"))?.trim());
  // Live: the reloaded page's timeline fills from WatchJob.
  await ann.locator("#timeline li.event").nth(1).waitFor({ timeout: 10_000 });
  await shot(ann, "2-paused-order");
  await ann.fill("input[name='f.order_id']", "ORD-1");
  await ann.click("form.widget button[type=submit]");

  // The amount is a number field; a client without the browser's checks
  // sends text, and the widget shows the server's refusal on that field.
  const amount = ann.locator("input[name='f.amount']");
  await amount.waitFor();
  assert.equal(await amount.getAttribute("type"), "number");
  await amount.evaluate((input: HTMLInputElement) => { input.type = "text"; });
  await amount.fill("lots");
  await ann.click("form.widget button[type=submit]");
  const refusal = ann.locator("label[data-field=amount] .invalid");
  await refusal.waitFor();
  assert.ok((await refusal.textContent())?.trim(), "a message on the refused field");
  // Sent back with the page (a number field then shows it empty, as browsers do).
  assert.equal(await ann.getAttribute("input[name='f.amount']", "value"), "lots");
  await shot(ann, "3-refused-amount");
  await ann.fill("input[name='f.amount']", "700");
  await ann.click("form.widget button[type=submit]");

  // Above the threshold: an approval card with the exact call and amount.
  const card = ann.locator("section.approval");
  await card.waitFor();
  assert.equal(await ann.textContent("section.approval p.call code"), 'process_refund(amount=700, order_id="ORD-1")');
  assert.equal((await ann.textContent("tr.amount td"))?.trim(), "700");
  assert.equal((await ann.textContent(".approver"))?.trim(), "supervisor");
  await shot(ann, "4-approval-card");
  // Ann may not decide (she holds no supervisor role): the card offers her
  // no button, and says who decides.
  assert.equal(await ann.locator("section.approval button").count(), 0, "no button for who may not decide");
  assert.match(await ann.textContent("section.approval .not-yours") ?? "", /supervisor/);
  assert.match(await ann.textContent("#status") ?? "", /paused/);
  // The version the job runs is on its page.
  assert.ok((await ann.textContent("dd.version"))?.trim(), "the skill version");

  const sam = await signIn("sam");
  await sam.goto(jobUrl);
  await sam.locator("section.approval").waitFor();
  await sam.fill("section.approval input[name=comment]", "checked the order");
  await sam.click("section.approval button[value=approve]");
  await sam.locator("#status.completed").waitFor();
  assert.match(await sam.textContent(".reply") ?? "", /refund/i);
  assert.equal(await sam.locator("section.call").count(), 2, "both tool calls with their results");
  await shot(sam, "5-completed");
  // The timeline: each event with its payload, the time since the one
  // before, and who answered (ann) and who approved (sam).
  await sam.locator("#timeline li.event.completed").waitFor();
  const by = await sam.locator("#timeline .by").allTextContents();
  assert.ok(by.some((text) => /by ann/.test(text)), `ann answered: ${by}`);
  assert.ok(by.some((text) => /by sam/.test(text)), `sam approved: ${by}`);
  assert.ok((await sam.locator("#timeline .gap").allTextContents()).some((gap) => /^\+\d/.test(gap)));
  await sam.locator("#timeline details").first().evaluate((details: HTMLDetailsElement) => { details.open = true; });
  assert.match(await sam.locator("#timeline pre.payload").first().textContent() ?? "", /\{/);
  await shot(sam, "5b-timeline");
  // The approver's reason stays with the decision: on the timeline and in
  // the job's approval trail.
  const approved = await sam.locator("#timeline li.event.resumed").allTextContents();
  assert.ok(approved.some((text) => /approved by sam: checked the order/.test(text)), `the reason: ${approved}`);
  await sam.reload();
  assert.equal((await sam.textContent("table.decisions td.comment"))?.trim(), "checked the order");
  assert.match(await sam.textContent("table.decisions") ?? "", /process_refund[\s\S]*approved[\s\S]*sam/);
  await shot(sam, "5c-decisions");

  // Ann's page, left open, follows the job to its end on its own.
  await ann.locator("#status.completed").waitFor();

  // The list, filtered by status.
  await ann.goto(`${suite.console}/skills/cs-tier-1/jobs?status=completed`);
  const id = jobUrl.split("/").pop()!;
  assert.match(await ann.textContent(`tr[data-job='${id}'] .status`) ?? "", /completed/);
  await ann.goto(`${suite.console}/skills/cs-tier-1/jobs?status=paused`);
  assert.equal(await ann.locator(`tr[data-job='${id}']`).count(), 0);
  await shot(ann, "6-list");
});

test("what users and tools wrote is shown as text, never as markup", async () => {
  const ann = await signIn("ann");
  await ann.goto(`${suite.console}/skills/cs-tier-1`);
  await ann.fill("input[name=goal]", "<img src=x id=injected onerror=alert(1)> where is ORD-5");
  await ann.click("form.start button");
  await ann.waitForURL(/\/skills\/cs-tier-1\/jobs\/j/);
  await ann.locator("dd.goal").waitFor();
  assert.equal(await ann.locator("#injected").count(), 0);
  assert.match(await ann.textContent("dd.goal") ?? "", /<img src=x id=injected onerror=alert\(1\)>/);
});

test("a job list follows its jobs live", async () => {
  const ann = await signIn("ann");
  await ann.goto(`${suite.console}/skills/cs-tier-1`);
  await ann.fill("input[name=goal]", "I want a refund");
  await ann.click("form.start button");
  await ann.locator("form.widget").waitFor();
  const id = ann.url().split("/").pop()!;
  await ann.goto(`${suite.console}/skills/cs-tier-1/jobs`);
  const status = ann.locator(`tr[data-job='${id}'] .status`);
  assert.match(await status.textContent() ?? "", /paused/);
  const drawn = Number(await ann.getAttribute(`tr[data-job='${id}']`, "data-version"));
  // Answered elsewhere (another tab): this list moves without a click.
  const other = await (await ann.context()).newPage();
  await other.goto(`${suite.console}/skills/cs-tier-1/jobs/${id}`);
  await other.fill("input[name='f.order_id']", "ORD-2");
  await other.click("form.widget button[type=submit]");
  await ann.waitForFunction(
    ({ job, drawn }) => Number(document.querySelector(`tr[data-job='${job}']`)?.getAttribute("data-version")) > drawn,
    { job: id, drawn },
  );
  await shot(ann, "7-live-list");
});

test("every job across skills, newest first, filtered, and live", async () => {
  const root = await signIn("admin");
  await root.goto(`${suite.console}/jobs`);
  await root.locator("table.jobs.all").waitFor();
  const before = await root.locator("table.jobs.all tbody tr[data-job]").count();
  // Ann starts a job elsewhere: the open list shows it first, without a click.
  const ann = await signIn("ann");
  await ann.goto(`${suite.console}/skills/cs-tier-1`);
  await ann.fill("input[name=goal]", "where is my order ORD-7");
  await ann.click("form.start button");
  await ann.waitForURL(/\/skills\/cs-tier-1\/jobs\/j/);
  const name = new URL(ann.url()).pathname.slice(1);
  await root.waitForFunction(
    (job) => document.querySelector("table.jobs.all tbody tr[data-job]")?.getAttribute("data-job") === job,
    name,
    { timeout: 15_000 },
  );
  assert.ok(await root.locator("table.jobs.all tbody tr[data-job]").count() > before);
  assert.match(await root.textContent("table.jobs.all tbody tr:first-child") ?? "", /ann/, "its owner");
  await shot(root, "8-all-jobs");
  // Tables people can scan: the id's prefix (the whole id on hover and by
  // its copy button), the goal on one line, the status a badge in a plain row.
  const first = root.locator("table.jobs.all tbody tr:first-child");
  const full = name.split("/").pop()!;
  const shown = (await first.locator("a.id").textContent()) ?? "";
  assert.ok(shown.endsWith("…") && full.startsWith(shown.slice(0, -1)) && shown.length < 20, shown);
  assert.equal(await first.locator("a.id").getAttribute("title"), full);
  assert.equal(await first.locator("td.goal").evaluate((cell) => getComputedStyle(cell).whiteSpace), "nowrap");
  assert.equal(await first.locator("td.status .badge").count(), 1);
  assert.equal(await first.evaluate((row) => getComputedStyle(row).color),
               await root.locator("main").evaluate((main) => getComputedStyle(main).color), "the row is not coloured");
  await root.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: suite.console });
  await first.locator("button.copy").click();
  assert.equal(await root.evaluate(() => navigator.clipboard.readText()), full);

  // Filters: by status, outcome, skill, owner and time, as the request says.
  await root.goto(`${suite.console}/jobs?status=completed&skill=cs-tier-1&since=24h`);
  const statuses = await root.locator("table.jobs.all tbody td.status").allTextContents();
  assert.ok(statuses.length > 0 && statuses.every((status) => status === "completed"), `${statuses}`);
  assert.equal(await root.inputValue("select[name=status]"), "completed");
  await root.goto(`${suite.console}/jobs?owner=nobody`);
  assert.match(await root.textContent("table.jobs.all tbody") ?? "", /No jobs match/);
  await shot(root, "8b-filtered");
});

test("the inbox gathers what waits for a human, with counts", async () => {
  const ann = await signIn("ann");
  await ann.goto(`${suite.console}/skills/cs-tier-1`);
  await ann.fill("input[name=goal]", "I want a refund");
  await ann.click("form.start button");
  await ann.locator("form.widget").waitFor();
  const name = new URL(ann.url()).pathname.slice(1);
  await ann.fill("input[name='f.order_id']", "ORD-1");
  await ann.click("form.widget button[type=submit]");
  await ann.locator("input[name='f.amount']").waitFor();
  await ann.fill("input[name='f.amount']", "900");
  await ann.click("form.widget button[type=submit]");
  await ann.locator("section.approval").waitFor();

  const sam = await signIn("sam");
  await sam.goto(`${suite.console}/inbox`);
  const approvals = sam.locator(`table.inbox.approvals a[href='/${name}']`);
  assert.equal(await approvals.count(), 1, "the refund waits for an approver");
  assert.match(await sam.textContent("table.inbox.approvals") ?? "", /process_refund/);
  assert.ok(Number(await sam.textContent("#count-approvals")) >= 1);
  assert.ok(Number(await sam.textContent("#count-total")) >= 1);
  // The row says what is asked (the exact call), for which goal, and how
  // long it has waited.
  const row = sam.locator(`table.inbox.approvals tr[data-job='${name.split("/").pop()}']`);
  assert.equal(await row.locator("code.call").textContent(), 'process_refund(amount=900, order_id="ORD-1")');
  assert.equal((await row.locator(".goal").textContent())?.trim(), "I want a refund");
  assert.match(await row.locator("td.age").textContent() ?? "", /^waiting \d+ (s|min)$/);
  await shot(sam, "9-inbox");
  await approvals.click();
  await sam.locator("section.approval").waitFor();

  // Ann sees her job waiting, with nothing to press: she may not decide.
  await ann.goto(`${suite.console}/inbox`);
  const hers = ann.locator(`table.inbox.approvals tr[data-job='${name.split("/").pop()}']`);
  await hers.waitFor();
  assert.equal(await hers.locator("button[name=decision]").count(), 0);

  // Sam decides on the row itself, with his reason, and is back on the inbox.
  await sam.goto(`${suite.console}/inbox`);
  await row.locator("input[name=comment]").fill("within the customer's history");
  await row.locator("button[value=approve]").click();
  await sam.waitForURL(/\/inbox$/);
  assert.equal(await row.count(), 0, "decided: no longer waiting");
  await sam.goto(`${suite.console}/${name}`);
  await sam.locator("#status.completed").waitFor();
  assert.equal((await sam.textContent("table.decisions td.comment"))?.trim(), "within the customer's history");
});

test("an escalated job is taken over from its page by an operator only", async () => {
  const ann = await signIn("ann");
  await ann.goto(`${suite.console}/skills/cs-tier-1`);
  await ann.fill("input[name=goal]", "I already filed a chargeback with my bank for ORD-12345, refund it now");
  await ann.click("form.start button");
  // Handed to a person: ann is told who takes it, and gets no form.
  const handed = ann.locator("section.takeover .not-yours");
  await handed.waitFor();
  assert.match(await ann.textContent("section.takeover .prompt") ?? "", /Handed to a human/);
  const name = new URL(ann.url()).pathname.slice(1);

  // The operator finds it in the inbox, with a way in, and replies there.
  const sam = await signIn("sam");
  await sam.goto(`${suite.console}/inbox`);
  const row = sam.locator(`table.inbox.escalations tr[data-job='${name.split("/").pop()}']`);
  assert.match(await row.locator(".goal").textContent() ?? "", /chargeback/);
  await row.locator("a.button", { hasText: "Take over" }).click();
  const form = sam.locator("form.takeover");
  await form.waitFor();
  assert.equal(await form.getAttribute("data-reason"), "HUMAN_TAKEOVER_REQUIRED");
  await shot(sam, "9b-takeover");
  // An empty reply is refused by the DAL-Agent's own reading, on the field.
  await form.locator("textarea[name='f.reply']").evaluate((area: HTMLTextAreaElement) => { area.required = false; });
  await form.locator("button[type=submit]").click();
  await sam.locator("form.takeover label[data-field=reply] .invalid").waitFor();
  await sam.fill("form.takeover textarea[name='f.reply']", "We have your chargeback; the bank decides, and we will write to you.");
  await sam.click("form.takeover button[type=submit]");
  await sam.locator("#status.completed").waitFor();
  assert.match(await sam.textContent(".reply") ?? "", /the bank decides/);
});

test("tools show what the policy allows; solutions show grants and handoffs", async () => {
  const root = await signIn("admin");
  await root.goto(`${suite.console}/skills/cs-tier-1`);
  const state = async (tool: string) =>
    (await root.locator("table.tools tr", { hasText: tool }).locator("td").nth(1).textContent())?.trim();
  assert.equal(await state("check_order_status"), "available");
  assert.equal(await state("process_refund"), "needs approval");
  assert.equal(await state("delete_customer_record"), "never allowed");
  await shot(root, "10-tools");

  const fixture = join(repo, "shared/skill/tests/fixtures/scheduling-assistant.solution.json");
  execFileSync(binary("adas"), ["solution", "put", fixture, "--server", `http://${suite.address}`], {
    env: { ...process.env, ADAS_API_KEY: keys.admin },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await root.goto(`${suite.console}/solutions`);
  await root.click("table.solutions a[href='/solutions/scheduling-assistant']");
  await root.locator("table.grants").waitFor();
  const grants = await root.textContent("table.grants") ?? "";
  assert.match(grants, /sched\.user_id/);
  assert.match(grants, /identity-gateway/);
  assert.match(await root.textContent("table.handoffs") ?? "", /scheduling-agent/);
  await shot(root, "11-solution");
});

test("a job handed to a human is retried from its page; a filtered list is cancelled at once", async () => {
  const ann = await signIn("ann");
  await ann.goto(`${suite.console}/skills/cs-tier-1`);
  await ann.fill("input[name=goal]", "I already filed a chargeback with my bank for ORD-12345, refund it now");
  await ann.click("form.start button");
  await ann.locator("section.takeover").waitFor();
  const old = new URL(ann.url()).pathname;
  // Her own job: she may run it again, as a new job.
  await ann.click("form.retry button");
  await ann.waitForURL((url) => url.pathname !== old && /\/jobs\/j/.test(url.pathname));
  assert.equal(await ann.getAttribute("p.retry-of a", "href"), old);
  await shot(ann, "12-retry");
  await ann.goto(`${suite.console}${old}`);
  await ann.locator("#status.cancelled").waitFor();
  assert.match(await ann.textContent("p.retried-by") ?? "", /Retried as/);
  assert.equal(await ann.locator("form.retry").count(), 0, "retried once");

  // Two more waiting jobs; the admin cancels every unfinished job the
  // filtered list shows, confirming first.
  for (let i = 0; i < 2; i++) {
    await ann.goto(`${suite.console}/skills/cs-tier-1`);
    await ann.fill("input[name=goal]", "I want a refund");
    await ann.click("form.start button");
    await ann.locator("form.widget").waitFor();
  }
  const root = await signIn("admin");
  await root.goto(`${suite.console}/jobs?status=paused&skill=cs-tier-1`);
  const listed = Number(await root.getAttribute("form.bulk-cancel", "data-count"));
  assert.ok(listed >= 2, `${listed}`);
  root.once("dialog", (dialog) => dialog.accept());
  await root.click("form.bulk-cancel button");
  await root.waitForURL(/cancelled=/);
  assert.match(await root.textContent("p.bulk-result") ?? "", new RegExp(`Cancelled ${listed}\\.`));
  await root.goto(`${suite.console}/jobs?status=paused&skill=cs-tier-1`);
  assert.equal(await root.locator("form.bulk-cancel").count(), 0, "nothing unfinished is left listed");
  await shot(root, "13-bulk-cancelled");
});

test("another origin's form post is refused", async () => {
  const response = await fetch(`${suite.console}/skills/cs-tier-1/jobs`, {
    method: "POST",
    headers: { origin: "http://evil.example", "content-type": "application/x-www-form-urlencoded" },
    body: "goal=refund",
    redirect: "manual",
  });
  assert.equal(response.status, 403);
});
