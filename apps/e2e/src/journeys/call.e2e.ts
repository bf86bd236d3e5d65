import { expect, test, type Browser, type Page } from '@playwright/test';
import { watchCspViolations } from '../support/csp';
import { launchLoopbackChromium } from '../support/loopback-browser';
import { call, createMember, matchMembers, openFromMenu, signIn, type Member } from '../support/members';
import { watchRealtime } from '../support/realtime';

const PASSWORD = 'call journey password 1';
const CITY = 'Chicago, IL';

/** What the stand-in transcriber (tools/scripts/lib/transcriber-stand-in.mjs, started by run.mjs) has seen. */
interface TranscriberStats {
  text: string;
  transcriptions: number;
  rejected: number;
  lastError: string | null;
}

async function transcriberStats(): Promise<TranscriberStats> {
  const url = process.env.E2E_TRANSCRIBER_URL;
  if (!url) throw new Error('E2E_TRANSCRIBER_URL is not set: run the journey through apps/e2e/run.mjs');
  return (
    await fetch(`${url}/stats`, { signal: AbortSignal.timeout(5_000) })
  ).json() as Promise<TranscriberStats>;
}

/** With E2E_SHOTS_DIR set, the journey leaves screenshots of the screens it passes (for review). */
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
}

/** The call screen's mm:ss timer in seconds. */
async function timerSeconds(page: Page): Promise<number> {
  const text = (await page.getByLabel('Call duration').textContent()) ?? '';
  const match = /(\d+):(\d\d)/.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : -1;
}

/**
 * Lets the journey time what the member sees from their own click: every document of the page
 * keeps the time (the page's clock, Date.now()) of its latest click.
 */
async function recordClicks(page: Page): Promise<() => Promise<number>> {
  await page.addInitScript(() => {
    document.addEventListener(
      'click',
      () => ((window as unknown as { lastClickAt: number }).lastClickAt = Date.now()),
      { capture: true },
    );
  });
  return () => page.evaluate(() => (window as unknown as { lastClickAt: number }).lastClickAt);
}

/**
 * Watches the page from now on for 'Call ended' (not on it yet) and answers, when asked, the
 * moment it first appeared on this machine's clock.
 */
async function watchForCallEnded(page: Page): Promise<() => Promise<number | null>> {
  const onPageAlready = await page.evaluate(() => {
    const w = window as unknown as { callEndedAt: number | null };
    w.callEndedAt = null;
    const observer = new MutationObserver(() => {
      if (!document.body.textContent?.includes('Call ended')) return;
      w.callEndedAt = Date.now();
      observer.disconnect();
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    return document.body.textContent?.includes('Call ended') ?? false;
  });
  expect(onPageAlready).toBe(false);
  return () => page.evaluate(() => (window as unknown as { callEndedAt: number | null }).callEndedAt);
}

/** What the remote <video> is showing: its frame width and playback position. */
function remoteVideo(page: Page) {
  return page.getByLabel('Remote video').evaluate((el) => {
    const video = el as HTMLVideoElement;
    return { width: video.videoWidth, time: video.currentTime, paused: video.paused };
  });
}

/** The subtitle lines on screen, as read ('You: …' / 'Them: …'). */
async function subtitleLines(page: Page): Promise<string[]> {
  const lines = await page.getByRole('log', { name: 'Subtitles' }).getByRole('listitem').allInnerTexts();
  return lines.map((line) => line.replace(/\s+/g, ' ').trim());
}

/** The call history row with `other` on /calls, opened through the app's navigation. */
async function historyRow(page: Page, other: Member) {
  await openFromMenu(page, 'Calls');
  await expect(page).toHaveURL(/\/calls$/);
  const rows = page.getByRole('listitem', { name: `Call with ${other.name}` });
  await expect(rows).toHaveCount(1);
  return rows;
}

test('two matched members hold a video call on loopback: ring, answer, remote video, live subtitles from the transcriber, end, history', async () => {
  test.setTimeout(180_000);
  // Ages no other journey's members want, so only these two ever fit each other.
  const [a, b] = await Promise.all([
    createMember(
      { name: 'Rowan', age: 71, gender: 'male', seeks: 'female', ages: [69, 70], city: CITY },
      '#5d4037',
      PASSWORD,
    ),
    createMember(
      { name: 'Sage', age: 69, gender: 'female', seeks: 'male', ages: [70, 72], city: CITY },
      '#0288d1',
      PASSWORD,
    ),
  ]);
  await matchMembers(a, b);
  const { text: sentence } = await transcriberStats();

  // Both members' browsers run in a network namespace that has only loopback: the call's media
  // can take no other path (src/support/loopback-browser.ts).
  let browser: Browser | undefined;
  try {
    browser = await launchLoopbackChromium();
    const contextOptions = {
      baseURL: process.env.E2E_WEB_URL,
      permissions: ['camera', 'microphone'],
    };
    // Rowan on a desktop, Sage on a phone.
    const rowanContext = await browser.newContext({
      ...contextOptions,
      viewport: { width: 1280, height: 900 },
    });
    const sageContext = await browser.newContext({
      ...contextOptions,
      viewport: { width: 390, height: 844 },
    });
    for (const context of [rowanContext, sageContext]) context.setDefaultTimeout(15_000);
    const rowan = await rowanContext.newPage();
    const sage = await sageContext.newPage();
    const rowanClickedAt = await recordClicks(rowan);
    const sageClickedAt = await recordClicks(sage);
    const rowanViolations = await watchCspViolations(rowan);
    const sageViolations = await watchCspViolations(sage);
    const rowanRealtime = watchRealtime(rowan);
    const sageRealtime = watchRealtime(sage);
    await Promise.all([signIn(rowan, a), signIn(sage, b)]);
    await expect.poll(rowanRealtime.connected).toBe(1);
    await expect.poll(sageRealtime.connected).toBe(1);

    // Rowan opens the chat with Sage and starts a video call; Sage, on the dashboard, is rung.
    await rowan
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /^Messages/ })
      .click();
    await rowan.getByRole('link', { name: /Sage/ }).click();
    await expect(rowan).toHaveURL(new RegExp(`/chat/${b.id}$`));
    await rowan.getByRole('button', { name: 'Video Call' }).click();
    await expect(rowan).toHaveURL(new RegExp(`/call/${b.id}$`));
    await expect(rowan.getByRole('heading', { level: 1, name: 'Calling Sage...' })).toBeVisible();
    await expect(rowan.getByLabel('Call duration')).toHaveText('00:00');

    const ringing = sage.getByRole('dialog', { name: 'Incoming Video Call' });
    await expect(ringing).toBeVisible();
    await expect(ringing).toContainText('Rowan is calling you...');
    await expect(ringing.getByRole('button', { name: 'Reject' })).toBeVisible();
    await shot(sage, 'call-390-incoming');
    const answeredAt = Date.now();
    await ringing.getByRole('button', { name: 'Answer' }).click();
    const answerClickedAt = await sageClickedAt();
    await expect(sage).toHaveURL(new RegExp(`/call/${a.id}$`));
    await expect(ringing).toHaveCount(0);

    // Sage's remote video plays: frames have a size and the playback position moves on. Timed in
    // Sage's page, from her click on Answer to the first moment the video plays.
    const playingAt = await sage.waitForFunction(
      () => {
        const video = document.querySelector<HTMLVideoElement>('video[aria-label="Remote video"]');
        return video && video.videoWidth > 0 && video.currentTime > 0 && !video.paused ? Date.now() : 0;
      },
      undefined,
      { polling: 20 },
    );
    const playedAt = await playingAt.jsonValue();
    console.log(`call journey: Sage's remote video played ${playedAt - answerClickedAt} ms after Answer`);
    const { time: firstTime } = await remoteVideo(sage);
    await expect.poll(async () => (await remoteVideo(sage)).time).toBeGreaterThan(firstTime);
    // Rowan sees Sage too.
    await expect.poll(async () => (await remoteVideo(rowan)).width).toBeGreaterThan(0);
    await expect(rowan.getByRole('heading', { level: 1, name: 'In call with Sage' })).toBeVisible();
    await expect(sage.getByRole('heading', { level: 1, name: 'In call with Rowan' })).toBeVisible();
    await expect(sage.getByLabel('Your camera')).toBeVisible();

    // The timer counts from the answer.
    await expect.poll(() => timerSeconds(sage)).toBeGreaterThan(1);
    await expect.poll(() => timerSeconds(rowan)).toBeGreaterThan(1);

    // Both turn subtitles on: each hears themselves as 'You' and the other as 'Them', the text
    // coming from the stand-in transcriber (whose sentence this is).
    for (const page of [rowan, sage]) {
      await page.getByRole('button', { name: 'Show subtitles' }).click();
      await expect(page.getByRole('button', { name: 'Hide subtitles' })).toBeVisible();
    }
    for (const page of [rowan, sage]) {
      await expect
        .poll(() => subtitleLines(page), { timeout: 20_000 })
        .toEqual(expect.arrayContaining([`You: ${sentence}`, `Them: ${sentence}`]));
      expect((await subtitleLines(page)).length).toBeLessThanOrEqual(3);
    }
    await shot(rowan, 'call-1280-in-call');
    await shot(sage, 'call-390-in-call');
    // What reached the transcriber were standalone webm files (it refuses anything else).
    const stats = await transcriberStats();
    expect(stats.transcriptions).toBeGreaterThanOrEqual(2);
    expect(stats.rejected, `the stand-in refused a chunk: ${stats.lastError}`).toBe(0);

    // Rowan ends: he is on the dashboard at once. Sage's app hears of the end through the server
    // (or her peer connection closing), shows 'Call ended' and leaves 500 ms later (spec: "after
    // the call ends the call screen goes to /dashboard after 500 ms, or immediately when End is
    // pressed"). Both pages run on this machine's clock, so Rowan's click, the moment 'Call ended'
    // appears for Sage and the moments each URL changes compare directly.
    const sageCallEndedAt = await watchForCallEnded(sage);
    const backOnDashboard = (page: Page) =>
      page.waitForURL(/\/dashboard$/, { timeout: 10_000 }).then(() => Date.now());
    const [rowanBack, sageBack] = [backOnDashboard(rowan), backOnDashboard(sage)];
    await rowan.getByRole('button', { name: 'End call' }).click();
    const endClickedAt = await rowanClickedAt();
    const rowanAfterMs = (await rowanBack) - endClickedAt;
    const sageBackAt = await sageBack;
    const sageAfterMs = sageBackAt - endClickedAt;
    const sageToldAt = await sageCallEndedAt();
    expect(sageToldAt, "Sage's screen never said 'Call ended' before leaving").not.toBeNull();
    const sageToldMs = (sageToldAt ?? 0) - endClickedAt;
    const sageLeftMs = sageBackAt - (sageToldAt ?? 0);
    console.log(
      `call journey: after Rowan pressed End call, he was on the dashboard in ${rowanAfterMs} ms; Sage saw 'Call ended' in ${sageToldMs} ms and was on the dashboard ${sageLeftMs} ms later (${sageAfterMs} ms in all)`,
    );
    // Bounds for the whole stack on a loaded machine (the page also decodes, encodes and records
    // video): 61–558 ms seen for Rowan, 938–3149 ms in all for Sage. The screen's exact
    // rules (at once for who presses End, 500 ms and not before for the other) are CallScreen.test's.
    expect(rowanAfterMs).toBeLessThan(1_500);
    // The end reaches her through call-service and the gateway: well under a second on a quiet
    // machine, up to about 3 s while CI's two cores also run the platform, two browsers' video and
    // the transcriber.
    expect(sageToldMs).toBeLessThan(4_000);
    // The spec's 500 ms, give or take the moment the observer and Playwright see each change.
    expect(sageLeftMs).toBeGreaterThanOrEqual(400);
    expect(sageLeftMs).toBeLessThan(2_000);
    // The server measured the call from the accept it received to the end it received. The accept
    // came after the click on Answer and before Sage's remote video played (the peers connect
    // through call-service only once it is accepted); the end after Rowan's click on End call and
    // before the history said 'completed' (it can reach call-service after Sage's screen heard of
    // it from the peer connection). Bounds from those moments hold however fast the machine is.
    const history = await call<{ status: string; durationSeconds: number | null }[]>(
      'GET',
      '/api/calls/history',
      a,
    );
    const answeredToHistory = (Date.now() - answeredAt) / 1000;
    const playedToEnd = (endClickedAt - playedAt) / 1000;
    expect(history.body).toEqual([expect.objectContaining({ status: 'completed' })]);
    const serverSeconds = history.body[0]?.durationSeconds ?? -1;
    expect(serverSeconds).toBeGreaterThanOrEqual(2);
    // ±1 for the server's whole seconds.
    expect(serverSeconds).toBeLessThanOrEqual(answeredToHistory + 1);
    expect(serverSeconds).toBeGreaterThanOrEqual(playedToEnd - 1);

    // Both histories hold the one call, completed, with the duration the server measured.
    // Sage is on a phone: the navigation is behind the menu there.
    for (const [page, other, direction] of [
      [rowan, b, 'Outgoing'],
      [sage, a, 'Incoming'],
    ] as const) {
      const row = await historyRow(page, other);
      await expect(row).toContainText('Completed');
      await expect(row).toContainText(direction);
      const duration = (await row.locator('.call-row__duration').innerText()).replace('Duration', '').trim();
      expect(duration).toMatch(/^\d\d:\d\d$/);
      const [minutes, seconds] = duration.split(':').map(Number);
      expect(minutes * 60 + seconds).toBe(serverSeconds);
    }
    await shot(sage, 'calls-390-history');

    expect(rowanViolations).toEqual([]);
    expect(sageViolations).toEqual([]);
  } finally {
    await browser?.close();
  }
});
