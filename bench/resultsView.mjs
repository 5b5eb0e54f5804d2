#!/usr/bin/env node
// The results view at 100,000 results (issue 18, item 3: "summary and first rows painted ≤ 1 s after the
// panel opens, everything searchable ≤ 2 s, scrolling at 60 fps"), in headless Chromium as the browser
// tests drive it (test/webview/support/panelPage.ts: the panel's real HTML and CSP, a stand-in for VS
// Code's acquireVsCodeApi).
//
//   npm run build && node bench/resultsView.mjs [--cases N] [--rounds K] [--old DIR] [--out DIR]
//
// Data: bench/generate.mjs's cases (N cases, default 20,000 = 100,000 results of 5 scorers) run once by the
// CLI (`evallens run`), so the run folder's report.json is the CLI's own; kept in --out and reused.
//
// Host side (Node, no VS Code): the extension's own code path from a report.json to the messages it posts,
// JSON-serialized as VS Code's postMessage does: time to the first message (what the summary waits for) and
// to the last, both ways: `stream` (extension/results/reportStream.ts: `evallens report --stream` prints
// checked parts, each posted as it comes; streamCliRunningAtFirst = 1 when the CLI was still reading at the
// first post; streamDetailsApart = 1 when the CLI printed the results without their details, streamPostedMb what
// the host posted) and `whole` (reportFile.ts: the whole checked report, then chunked by reportMessages.ts). The
// CLI's CPU for the same read, both ways, alone as a whole process (bench/lib/measure.mjs); detailsLookupMs: the
// host asking the CLI for one case's details (resultDetailsSource.ts, `report --details-of`), as opening a row did
// before; detailsReadMs: the host reading them itself where the stream said they are (resultsAt.ts), as opening a
// row does now (a build whose stream says nothing of where results are has no such figure).
//
// View side (Chromium): the messages are loaded into the page first (not timed); then, from t0 = "the host
// starts posting", each message is delivered as its own task (JSON.parse + a `message` event, as a
// webview deserializes what the host posted), and an in-page requestAnimationFrame loop notes the frame in
// which: the summary shows (run title and case counts), the first rows show, and the view has every
// result and the run is complete. A search is typed as soon as the first rows show (a case near the end),
// and the time until its hit shows with the full total is "everything searchable". Then, loaded: the same
// search again alone, and a scripted scroll from the first row to the last (one step a frame over
// --frames frames, frame times from the rAF timestamps: median, p95, frames dropped = frames over 1.5×
// 16.7 ms counted by how many 16.7 ms periods they missed).
//
// --old DIR: the view side by side in the same rounds with DIR/webview.js and DIR/webview.css (a copy of an
// older build's dist/); the host side is measured once a round (its code is this worktree's, with dist/cli.js).
// Medians of --rounds rounds (default 5), in alternating order. BENCH_METRICS=1 prints Chromium's
// Performance metrics (script, layout, style) around each phase; BENCH_PROFILE=<prefix> writes a CPU
// profile of the open.

import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { register } from 'tsx/cjs/api';
import { failure, wholeNumber } from './lib/args.mjs';
import { generate, GENERATOR_HASH } from './generate.mjs';
import { measure } from './lib/measure.mjs';
import { median, round } from './lib/stats.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const { values: args } = parseArgs({
  options: {
    cases: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '5' },
    frames: { type: 'string', default: '240' },
    old: { type: 'string' },
    out: { type: 'string' },
    'no-host': { type: 'boolean', default: false },
  },
});
const die = failure('resultsView.mjs');
const CASES = wholeNumber(die)(args.cases, 'cases', 10);
const ROUNDS = wholeNumber(die)(args.rounds, 'rounds', 1);
const FRAMES = wholeNumber(die)(args.frames, 'frames', 10);
const OUT = resolve(args.out ?? join(HERE, 'out', 'resultsView'));
const CHROMIUM = '/usr/bin/chromium';
const BUILDS = [{ name: 'new', dir: join(ROOT, 'dist') }];
if (args.old !== undefined) BUILDS.push({ name: 'old', dir: resolve(args.old) });
for (const build of BUILDS)
  for (const file of ['webview.js', 'webview.css', 'cli.js'])
    if (!existsSync(join(build.dir, file))) die(`${join(build.dir, file)} is missing; build first: npm run build`);
if (!existsSync(CHROMIUM)) die(`no Chromium at ${CHROMIUM}`);

register();
const require = createRequire(import.meta.url);
const { panelHtml } = require(join(ROOT, 'extension/results/panelHtml.ts'));
const { readReportFile } = require(join(ROOT, 'extension/results/reportFile.ts'));
const { streamEntry, streamReportFile } = require(join(ROOT, 'extension/results/reportStream.ts'));
const { reportMessages } = require(join(ROOT, 'extension/results/reportMessages.ts'));
const { readResultDetails } = require(join(ROOT, 'extension/results/resultDetailsSource.ts'));
const { fileStamp, ResultsAtIndex } = require(join(ROOT, 'extension/results/resultsAt.ts'));
const { chromium } = require('playwright-core');

// --- Data: the CLI's own run folder -------------------------------------------------------------------

function runFolderReport() {
  const dir = join(OUT, `data-${CASES}`);
  const marker = join(dir, 'report-path.json');
  if (existsSync(marker)) {
    const kept = JSON.parse(readFileSync(marker, 'utf8'));
    if (kept.generator === GENERATOR_HASH && existsSync(kept.report)) return kept.report;
  }
  mkdirSync(dir, { recursive: true });
  console.error(`generating ${CASES} cases and running them once with the CLI (kept in ${dir})…`);
  return generate({ cases: CASES, peerCases: Math.min(CASES, 10), out: dir }).then(() => {
    const runs = join(dir, 'runs');
    try {
      execFileSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'run', 'bench.eval.yaml', '--runs-dir', runs], {
        cwd: dir,
        stdio: 'ignore',
      });
    } catch (e) {
      if (e.status !== 1) throw e; // 1: some cases failed, as they should
    }
    const [run] = readdirSync(runs);
    const report = join(runs, run, 'report.json');
    writeFileSync(marker, JSON.stringify({ generator: GENERATOR_HASH, report }));
    return report;
  });
}

const reportFile = await runFolderReport();
const report = await readReportFile(join(ROOT, 'dist', 'cli.js'), reportFile);
const TOTAL = report.results.length;
// A case near the end whose results the search finds (its id matches no other case's).
const TARGET = report.cases[report.cases.length - 3].id;
const TARGET_HITS = report.results.filter((r) => r.caseId.toLowerCase().includes(TARGET.toLowerCase())).length;

// --- Host side ------------------------------------------------------------------------------------------

/** The host's path: `stream` as the extension opens a report.json now (the CLI's checked parts, each posted as it
 * comes: extension/results/reportStream.ts), `whole` as before (the CLI's whole checked report, then chunked). */
async function hostRound(build) {
  const cli = join(build.dir, 'cli.js');
  const started = performance.now();
  const cpu = process.cpuUsage();
  let first;
  let cliRunningAtFirst;
  let streamDetailsApart;
  let child;
  // What the panel posts (resultsPanel.ts reportParts/reportEnded), each with when it was posted.
  const posted = [];
  // Where the stream said the results are (the panel's index, resultsPanel.ts reportParts).
  const index = new ResultsAtIndex(reportFile, await fileStamp(reportFile));
  const post = (messages) => {
    const at = performance.now() - started;
    for (const message of messages) posted.push({ at, text: JSON.stringify(message) });
    first ??= at;
  };
  await streamReportFile(
    cli,
    reportFile,
    {
      head: (report, detailsApart, resultsAt) => {
        index.add(report.results, resultsAt);
        post([
          { type: 'config/label', configFile: report.configFile, label: 'bench.eval.yaml' },
          ...reportMessages(report, undefined, false, detailsApart),
        ]);
        streamDetailsApart = detailsApart ? 1 : 0;
        cliRunningAtFirst = child.exitCode === null && child.signalCode === null ? 1 : 0;
      },
      more: (cases, results, resultsAt) => {
        index.add(results, resultsAt);
        post([{ type: 'report/append', cases, results, complete: false }]);
      },
    },
    { started: (c) => (child = c) },
  );
  post([{ type: 'report/append', cases: [], results: [], complete: true }]);
  // Opening a row: the host reads the case's results where the stream said they are.
  const detailsStarted = performance.now();
  const details = await index.read(TARGET, 64 * 1024 * 1024);
  const detailsReadMs = details?.length === 5 ? performance.now() - detailsStarted : undefined;
  const streamed = {
    streamFirstMessageMs: first,
    streamLastMessageMs: performance.now() - started,
    streamHostCpuS: cpuSeconds(process.cpuUsage(cpu)),
    streamCliRunningAtFirst: cliRunningAtFirst,
    streamDetailsApart,
    // What the host posted in all (as postMessage serializes it), in MB.
    streamPostedMb: posted.reduce((n, m) => n + m.text.length, 0) / 1e6,
    ...(detailsReadMs === undefined ? {} : { detailsReadMs }),
  };
  const wholeStarted = performance.now();
  const wholeCpu = process.cpuUsage();
  const read = await readReportFile(cli, reportFile);
  let wholeFirst;
  for (const message of reportMessages(read)) {
    JSON.stringify(message);
    wholeFirst ??= performance.now() - wholeStarted;
  }
  return {
    posted,
    ...streamed,
    wholeFirstMessageMs: wholeFirst,
    wholeLastMessageMs: performance.now() - wholeStarted,
    wholeHostCpuS: cpuSeconds(process.cpuUsage(wholeCpu)),
  };
}

const cpuSeconds = (used) => (used.user + used.system) / 1e6;

/** The CLI's `report --stream` (as the extension forks it) until its first line: wall ms and the CPU seconds (user + sys,
 * from /proc/<pid>/stat) it had used by then, which the machine's load inflates far less than the wall time. */
function firstLine(build) {
  const entry = streamEntry(join(build.dir, 'cli.js'));
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, [entry, 'report', reportFile, '--stream', '--no-color'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let seen;
    child.stdout.on('data', (chunk) => {
      if (seen !== undefined || !chunk.includes(10)) return;
      const wallMs = performance.now() - started;
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      seen = { cliStreamFirstLineMs: wallMs, cliStreamFirstLineCpuS: (Number(fields[11]) + Number(fields[12])) / 100 };
    });
    child.on('error', fail);
    child.on('close', () => (seen === undefined ? fail(new Error(`${entry} printed no line`)) : done(seen)));
  });
}

async function cliRound(build) {
  const cli = join(build.dir, 'cli.js');
  const whole = await measure([process.execPath, cli, 'report', reportFile, '--reporter', 'json', '--no-color'], {
    cwd: OUT,
    scratch: OUT,
    okCodes: [0, 1],
  });
  // As the extension forks it: the CLI's report --stream bundled alone when the build has one (dist/reportStream.js).
  const streamed = await measure([process.execPath, streamEntry(cli), 'report', reportFile, '--stream', '--no-color'], {
    cwd: OUT,
    scratch: OUT,
    okCodes: [0],
  });
  // Opening a row of a report whose results came without details: the host asks the CLI for the case's
  // (resultDetailsSource.ts), a whole process; an older CLI without `--details-of` has no such figure.
  const detailsStarted = performance.now();
  const details = await readResultDetails(cli, reportFile, report.runId, TARGET);
  const detailsLookupMs = details.ok && details.results.length === 5 ? performance.now() - detailsStarted : undefined;
  return {
    ...(await firstLine(build)),
    ...(detailsLookupMs === undefined ? {} : { detailsLookupMs }),
    cliWholeWallMs: whole.wallMs,
    cliWholeCpuS: whole.cpuS,
    cliWholePeakRssMb: whole.peakRssMb,
    cliStreamWallMs: streamed.wallMs,
    cliStreamCpuS: streamed.cpuS,
    cliStreamPeakRssMb: streamed.peakRssMb,
  };
}

// --- View side ------------------------------------------------------------------------------------------

/** In the page before the view's script: the fake VS Code API (as panelPage.ts) and the measuring code. */
const PAGE_SCRIPT = `
  window.posted = [];
  const fakeVsCodeApi = {
    postMessage: (message) => { window.posted.push(message); },
    getState: () => undefined,
    setState: (next) => next,
  };
  window.acquireVsCodeApi = () => fakeVsCodeApi;
  window.benchMessages = [];
  document.addEventListener('DOMContentLoaded', () => {
    for (const [name, value] of Object.entries({
      '--vscode-font-family': 'system-ui, sans-serif', '--vscode-font-size': '13px',
      '--vscode-editor-font-family': 'monospace', '--vscode-editor-font-size': '14px',
    })) document.documentElement.style.setProperty(name, value);
  });
  const text = (selector) => document.querySelector(selector)?.textContent ?? '';
  const typeSearch = (value) => {
    const box = document.querySelector('.toolbar .search');
    box.value = value;
    box.dispatchEvent(new Event('input', { bubbles: true }));
  };
  const hitShown = (target, hits, total) =>
    text('.toolbar .count') === hits + ' of ' + total + ' results' &&
    Array.from(document.querySelectorAll('.rows .case-link')).some((l) => l.textContent === target);
  /** Resolves with the time (since t0) of the first frame in which check() holds. */
  const frameWhen = (t0, check) => new Promise((done) => {
    const step = () => (check() ? done(performance.now() - t0) : requestAnimationFrame(step));
    requestAnimationFrame(step);
  });
  /** offsets: when each message arrives, in ms after t0 (the panel asking for the report); none: all at once. */
  window.benchOpen = async (target, hits, total, cases, offsets) => {
    const t0 = performance.now();
    const queue = window.benchMessages;
    const deliver = (i) => {
      if (i >= queue.length) return;
      window.dispatchEvent(new MessageEvent('message', { data: JSON.parse(queue[i]) }));
      const next = offsets === undefined ? 0 : Math.max(0, t0 + offsets[i + 1] - performance.now());
      setTimeout(() => deliver(i + 1), next);
    };
    setTimeout(() => deliver(0), offsets === undefined ? 0 : offsets[0]);
    const totalText = total.toLocaleString('en-US') + ' results';
    const summary = frameWhen(t0, () => text('.summary .case-counts').startsWith(cases + ' cases:'));
    const firstRows = frameWhen(t0, () => document.querySelectorAll('.rows .row').length > 0);
    const loaded = frameWhen(t0, () => text('.summary .run-status') === 'finished' && text('.toolbar .count').endsWith(totalText));
    const searched = firstRows.then(() => {
      typeSearch(target);
      return frameWhen(t0, () => text('.summary .run-status') === 'finished' && hitShown(target, hits.toLocaleString('en-US'), total.toLocaleString('en-US')));
    });
    return { summaryMs: await summary, firstRowsMs: await firstRows, loadedMs: await loaded, searchableMs: await searched };
  };
  window.benchSearchAlone = async (target, hits, total) => {
    typeSearch('');
    await frameWhen(performance.now(), () => text('.toolbar .count') === total.toLocaleString('en-US') + ' results');
    const t0 = performance.now();
    typeSearch(target);
    return frameWhen(t0, () => hitShown(target, hits.toLocaleString('en-US'), total.toLocaleString('en-US')));
  };
  window.benchScroll = async (frames) => {
    typeSearch('');
    const viewport = document.querySelector('.viewport');
    await frameWhen(performance.now(), () => viewport.scrollHeight > viewport.clientHeight * 4);
    viewport.scrollTop = 0;
    const end = viewport.scrollHeight - viewport.clientHeight;
    const stamps = [];
    await new Promise((done) => {
      let i = 0;
      const step = (now) => {
        stamps.push(now);
        if (i++ >= frames) return done();
        viewport.scrollTop = Math.round((end * i) / frames);
        requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    // The last row in the DOM is the table's last: aria-rowindex counts the header as row 1.
    const indexes = Array.from(document.querySelectorAll('.rows .row')).map((r) => Number(r.getAttribute('aria-rowindex')));
    const rowCount = Number(document.querySelector('.table').getAttribute('aria-rowcount'));
    return { stamps, reachedEnd: indexes.length > 0 && Math.max(...indexes) === rowCount };
  };
`;

function serve(build) {
  const server = createServer((request, response) => {
    const origin = `http://${request.headers.host ?? ''}`;
    if (request.url === '/') {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(
        panelHtml({ cspSource: origin, scriptUri: `${origin}/webview.js`, styleUri: `${origin}/webview.css` }),
      );
    } else if (request.url === '/webview.js' || request.url === '/webview.css') {
      response.setHeader('content-type', request.url.endsWith('.js') ? 'text/javascript' : 'text/css');
      response.end(readFileSync(join(build.dir, request.url.slice(1))));
    } else {
      response.statusCode = 404;
      response.end();
    }
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

function frameStats(stamps) {
  const deltas = stamps.slice(1).map((t, i) => t - stamps[i]);
  const sorted = [...deltas].sort((a, b) => a - b);
  const period = 1000 / 60;
  const dropped = deltas.reduce((n, d) => n + (d > 1.5 * period ? Math.round(d / period) - 1 : 0), 0);
  return {
    frameMedianMs: median(deltas),
    frameP95Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))],
    droppedFrames: dropped,
  };
}

/** The view opening the host's messages: delivered at once (`timed` false: the view's own time) or at the times the
 * host posted them (`timed`: from the panel asking for the report, the host's time included; only the open). */
async function viewRound(browser, build, posted, timed) {
  const server = await serve(build);
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  try {
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    await page.addInitScript({ content: PAGE_SCRIPT });
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => window.posted.some((m) => m.type === 'webview/ready'));
    for (const message of posted) await page.evaluate((m) => window.benchMessages.push(m), message.text);
    const session = await page.context().newCDPSession(page);
    await session.send('Performance.enable');
    if (process.env.BENCH_PROFILE) {
      await session.send('Profiler.enable');
      await session.send('Profiler.start');
    }
    const cpuBefore = await mainThreadS(session);
    const offsets = timed ? posted.map((m) => m.at) : undefined;
    const opened = await page.evaluate(
      ([t, h, n, c, o]) => window.benchOpen(t, h, n, c, o ?? undefined),
      [TARGET, TARGET_HITS, TOTAL, report.cases.length, offsets ?? null],
    );
    if (timed)
      return {
        openSummaryMs: opened.summaryMs,
        openFirstRowsMs: opened.firstRowsMs,
        openSearchableMs: opened.searchableMs,
        // The view's main thread busy over that open, on this build's own messages (with or without details).
        openOwnMessagesCpuS: (await mainThreadS(session)) - cpuBefore,
      };
    const openCpuS = (await mainThreadS(session)) - cpuBefore;
    if (process.env.BENCH_PROFILE) {
      const { profile } = await session.send('Profiler.stop');
      writeFileSync(`${process.env.BENCH_PROFILE}-${build.name}.cpuprofile`, JSON.stringify(profile));
    }
    const searchAloneMs = await page.evaluate(
      ([t, h, n]) => window.benchSearchAlone(t, h, n),
      [TARGET, TARGET_HITS, TOTAL],
    );
    const scrollBefore = await mainThreadS(session);
    const scrolled = await page.evaluate((f) => window.benchScroll(f), FRAMES);
    const scrollCpuMsPerFrame = (((await mainThreadS(session)) - scrollBefore) * 1000) / FRAMES;
    await session.detach();
    return {
      ...opened,
      openCpuS,
      searchAloneMs,
      ...frameStats(scrolled.stamps),
      scrollCpuMsPerFrame,
      reachedEnd: scrolled.reachedEnd,
    };
  } finally {
    await page.close();
    server.close();
  }
}

/** The page's main-thread busy seconds so far (Chromium's own TaskDuration metric). */
async function mainThreadS(session) {
  const { metrics } = await session.send('Performance.getMetrics');
  if (process.env.BENCH_METRICS)
    console.error(
      metrics
        .filter((m) => /Duration|Count$/.test(m.name))
        .map((m) => `${m.name}=${round(m.value, 3)}`)
        .join(' '),
    );
  return metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0;
}

// --- Rounds ---------------------------------------------------------------------------------------------

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
  ],
});
const rows = Object.fromEntries(BUILDS.map((b) => [b.name, []]));
console.error(
  `${TOTAL.toLocaleString('en-US')} results (${report.cases.length} cases); search "${TARGET}" (${TARGET_HITS} hits); load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 === 0 ? BUILDS : [...BUILDS].reverse();
  // The host's code is this worktree's; each build's CLI reads the report (the protocol is the same).
  const hosts = {};
  const posted = {};
  for (const build of order) {
    const { posted: p, ...host } = await hostRound(build);
    posted[build.name] = p;
    hosts[build.name] = args['no-host'] ? {} : { ...host, ...(await cliRound(build)) };
  }
  for (const build of order) {
    // The view alone on the new CLI's messages (the same for both views), then from the panel's request with each
    // build's own CLI's messages at the times they were posted.
    const view = await viewRound(browser, build, posted.new, false);
    const timed = await viewRound(browser, build, posted[build.name], true);
    const row = { ...hosts[build.name], ...view, ...timed };
    rows[build.name].push(row);
    console.error(
      `round ${r + 1} ${build.name}: ${JSON.stringify(row, (_, v) => (typeof v === 'number' ? round(v, 1) : v))}`,
    );
  }
}
await browser.close();

const keys = Object.keys(rows.new[0]).filter((k) => typeof rows.new[0][k] === 'number');
const med = (name, key) => median(rows[name].map((x) => x[key]).filter((x) => typeof x === 'number'));
console.log(
  `\nResults view, ${TOTAL.toLocaleString('en-US')} results (${report.cases.length.toLocaleString('en-US')} cases × ${report.scorers.length} scorers), medians of ${ROUNDS} rounds; load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}, ${cpus().length} cores\n`,
);
console.log(`| measure | new |${BUILDS.length > 1 ? ' old | old/new |' : ''}`);
console.log(`|---|---|${BUILDS.length > 1 ? '---|---|' : ''}`);
for (const key of keys) {
  const n = med('new', key);
  const digits = key.endsWith('S') ? 2 : 0;
  const old = BUILDS.length > 1 ? med('old', key) : undefined;
  console.log(
    `| ${key} | ${round(n, digits)} |${old === undefined ? '' : ` ${round(old, digits)} | ${n > 0 ? `${round(old / n, 1)}×` : '—'} |`}`,
  );
}
console.log(
  `\nthe scroll reached the last row: ${BUILDS.map((b) => `${b.name} ${rows[b.name].every((x) => x.reachedEnd) ? 'yes' : 'no'}`).join(', ')}`,
);
