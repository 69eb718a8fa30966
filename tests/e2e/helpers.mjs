// Shared by the browser tests: one Chromium per test file, pages at phone and desktop
// sizes, logging in through the popup with the code from the mail sink, screenshots.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const BASE_URL = (process.env.AGORA_E2E_BASE_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
export const MAIL_URL = process.env.AGORA_E2E_MAIL_URL;

export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
};

const SCREENSHOT_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');
// Pictures for people to look at, which no test compares: taken by `make screenshots`, not by
// `make test` (rendered in software, they took about a tenth of the browser suite's time).
const SCREENSHOTS = process.env.AGORA_E2E_SCREENSHOTS === '1';

// Chromium's headless shell (its automation build: the same Blink and V8, without the desktop
// browser around them) drives the pages for about half the CPU of `chromium --headless`
// (chat-ux.test.mjs: 30-37 core-seconds against 63-87, docs/decisions.md). It has no
// notification platform, though: `registration.getNotifications()` never settles in it, so
// files that check a notification shown launch the whole browser (`notifications: true`).
export function launch({ notifications = false } = {}) {
  return chromium.launch({
    executablePath: notifications
      ? (process.env.AGORA_E2E_CHROMIUM ?? '/usr/bin/chromium')
      : (process.env.AGORA_E2E_HEADLESS_SHELL ?? '/usr/lib/chromium/chromium-headless-shell'),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A page in a fresh context (no shared storage) at the given viewport; page errors and CSP
 * violations (collected in `page.errors`) fail the test. */
export async function newPage(browser, viewport = VIEWPORTS.desktop) {
  const context = await browser.newContext({
    viewport,
    deviceScaleFactor: 1,
    isMobile: viewport.width < 600,
    hasTouch: viewport.width < 600,
  });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (error) => page.errors.push(error));
  // Content-Security-Policy violations are logged to the console: they fail the test too.
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy')) {
      page.errors.push(new Error(message.text()));
    }
  });
  return page;
}

/** Saves screenshots/<name>-<width>.png (with AGORA_E2E_SCREENSHOTS=1); the whole page unless `fullPage` is false. */
export async function screenshot(page, name, { fullPage = true } = {}) {
  if (!SCREENSHOTS) return;
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const { width } = page.viewportSize();
  // Let transitions (menu, dialogs) settle so the picture shows the resting state.
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage });
}

/** Screenshots at both widths (desktop first), back at the page's own size afterwards. */
export async function screenshotBoth(page, name, options) {
  if (!SCREENSHOTS) return;
  const original = page.viewportSize();
  for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
    await page.setViewportSize(viewport);
    await screenshot(page, name, options);
  }
  await page.setViewportSize(original);
}

export function uniqueEmail(label = 'user') {
  return `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** The newest one-time code mailed to `address`, waiting for it to arrive. */
export async function readOtp(address, { timeoutMs = 15_000 } = {}) {
  assert.ok(MAIL_URL, 'AGORA_E2E_MAIL_URL must point at the mail sink');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const reply = await fetch(`${MAIL_URL}?to=${encodeURIComponent(address)}`);
    if (reply.ok) {
      const { messages } = await reply.json();
      const code = messages.at(-1)?.body.match(/\b\d{6}\b/)?.[0];
      if (code) return code;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no code was mailed to ${address} within ${timeoutMs} ms`);
}

/** Logs a new user in through the API (every step of the flow); returns their auth key. */
export async function apiLogin(name, email = uniqueEmail(name.toLowerCase())) {
  const login = (body) =>
    fetch(`${BASE_URL}/api/user/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }).then((reply) => reply.json());
  await login({ email_id: email });
  const done = await login({ email_id: email, name, otp: await readOtp(email) });
  assert.ok(done.allspark_auth_key, JSON.stringify(done));
  return done.allspark_auth_key;
}

export function loginDialog(page) {
  return page.getByRole('dialog', { name: 'Login to continue' });
}

/**
 * Logs a new user in through the popup: e-mail, then the mailed code, then the name (asked
 * only once the code proved the address, so the dialog never tells who has an account).
 * `beforeCode` runs once the code field shows (to take a screenshot of the dialog).
 */
export async function signUpThroughPopup(page, { email, name }, { beforeCode } = {}) {
  const dialog = loginDialog(page);
  await dialog.waitFor();
  await dialog.getByLabel('E-mail or phone number').fill(email);
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByLabel('Code').waitFor();
  if (beforeCode) await beforeCode();
  await dialog.getByLabel('Code').fill(await readOtp(email));
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByLabel('Your name').fill(name);
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** A page already logged in as the holder of `authKey` (the app reads the key at start). */
export async function pageAs(browser, authKey, viewport = VIEWPORTS.desktop) {
  const page = await newPage(browser, viewport);
  await page.context().addInitScript((key) => localStorage.setItem('agora.auth_key', key), authKey);
  return page;
}

/** A set-up call through the API as the holder of `authKey`; fails the test on an error reply. */
export async function apiCall(authKey, path, body) {
  const reply = await fetch(`${BASE_URL}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${authKey}` },
    body: JSON.stringify(body),
  });
  const data = await reply.json();
  assert.equal(reply.status, 200, `${path}: ${JSON.stringify(data)}`);
  return data;
}

/** A set-up read through the API as the holder of `authKey`; fails the test on an error reply. */
export async function apiGet(authKey, path) {
  const reply = await fetch(`${BASE_URL}${path}`, { headers: { Authorization: `Bearer ${authKey}` } });
  const data = await reply.json();
  assert.equal(reply.status, 200, `${path}: ${JSON.stringify(data)}`);
  return data;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const FAILING_IMPACTS = new Set(['serious', 'critical']);

/** Serious and critical axe findings on the page as it is now, one line each. */
export async function seriousViolations(page) {
  const violations = await axeRun(page, { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] });
  return findingLines(violations.filter((violation) => FAILING_IMPACTS.has(violation.impact)));
}

/** The page's findings of the named axe rules, whatever their impact (moderate ones too: heading order, landmarks), one line each. */
export async function ruleViolations(page, ruleIds) {
  return findingLines(await axeRun(page, { type: 'rule', values: ruleIds }));
}

const findingLines = (violations) =>
  violations.flatMap((violation) => violation.nodes.map((node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')} — ${node.failureSummary.split('\n')[1]?.trim() ?? ''}`));

async function axeRun(page, runOnly) {
  // A dialog still fading in has blended colours that fail contrast: wait for such finite
  // transitions (spinners and other endless animations are left running).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime))
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  // Evaluated through the DevTools protocol: the page's own CSP allows no injected script tag.
  // Once a document (about 0.1 s of the renderer each): the app moves between its screens in it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // Violations only: axe then builds selectors for one node of each passed, incomplete or
  // inapplicable rule instead of every node (which no check reads), the slow end of its run.
  const results = await page.evaluate((only) => window.axe.run(document, { runOnly: only, resultTypes: ['violations'] }), runOnly);
  return results.violations;
}

// Until no section of the page shows its loading status; several may load at once (the
// profile's items and wallets), and a locator matching two is a strict-mode error.
export async function untilLoaded(page) {
  const loading = page.getByRole('status').filter({ hasText: 'Loading..' });
  while ((await loading.count()) > 0) await loading.first().waitFor({ state: 'detached' });
}

/** The app's service worker in `page`, notifications allowed, reached through Chrome's
 * DevTools protocol (which delivers pushes to it): its session and registration id. */
export async function serviceWorkerOf(page) {
  await page.context().grantPermissions(['notifications'], { origin: BASE_URL });
  const cdp = await page.context().newCDPSession(page);
  const registered = new Promise((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL === `${BASE_URL}/` && !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  return { cdp, registrationId: await registered };
}

/**
 * Delivers `push` to the registration's service worker through the DevTools protocol, until
 * `arrived()` (given how long to wait) says it got there. Chromium answers the protocol call before
 * the push event runs and reports nothing of what became of it; once, in CI under load, a
 * delivery showed nothing for ten seconds. So a delivery is given ten seconds, then made again
 * (the service worker's notifications replace each other by tag, its receipts are idempotent): a
 * worker that shows nothing for a push still fails, since every delivery shows nothing.
 */
export async function deliverPush(cdp, registrationId, push, arrived, { attempts = 3, waitMs = 10_000 } = {}) {
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: BASE_URL, registrationId, data: JSON.stringify(push) });
    if (await arrived(waitMs)) return;
  }
  throw new Error(`a push delivered ${attempts} times never arrived: ${JSON.stringify(push)}`);
}

/** Whether `locator` shows within `timeoutMs`. */
export function shownWithin(locator, timeoutMs) {
  return locator.waitFor({ timeout: timeoutMs }).then(
    () => true,
    () => false,
  );
}

/**
 * A finger's long press on `target`, held until `opened` (a locator) shows, then lifted. The
 * pointer goes down where Playwright's hover found the target still and hit (a phone's chat
 * window slides in: a point measured mid-way pressed beside the message).
 */
export async function longPress(page, target, opened) {
  await target.hover();
  await page.mouse.down();
  await opened.waitFor();
  await page.mouse.up();
}
