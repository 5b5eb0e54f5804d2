import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Report } from '../../../core/report/report';
import { EVENTS_PER_MESSAGE, LiveRun } from '../../../extension/results/liveRun';
import { createDecodeState, decodeEvents, finishEvents } from '../../../protocol/runEvents';
import type { HostToWebview } from '../../../protocol/webview';
import { reduce } from '../../../webview/model/reducer';
import { initialState } from '../../../webview/model/viewState';
import { ensureBuilt, runCli } from '../../support/cli';
import { eventsOf } from '../support/runs';

const eventCount = (messages: readonly HostToWebview[]): number =>
  messages.reduce((n, m) => n + (m.type === 'run/events' ? m.events.length : 0), 0);

describe('live run batching (host)', () => {
  it('sends few messages of bounded size, and drops result events whose case/end came in the same batch', () => {
    const live = new LiveRun('/c.eval.yaml');
    const events = eventsOf(5000);
    for (const event of events) live.push(event);
    const messages = live.flush();
    assert.ok(messages.every((m) => m.type === 'run/events' && m.events.length <= EVENTS_PER_MESSAGE));
    assert.equal(eventCount(messages), events.filter((e) => e.type !== 'result').length);
    assert.equal(live.flush().length, 0, 'nothing left once flushed');
  });

  it('sends the results of a case still running, so a slow case shows progress', () => {
    const live = new LiveRun('/c.eval.yaml');
    const events = eventsOf(1);
    for (const event of events.slice(0, 4)) live.push(event); // run/start, case/start, two results
    const state = live.flush().reduce(reduce, initialState());
    assert.equal(state.results.size, 2);
    assert.equal(state.cases.get('case-000000')?.status, 'running');
  });

  it('replays the whole run to a view that (re)started, ending in the same table as the live view', () => {
    const live = new LiveRun('/c.eval.yaml');
    const events = eventsOf(300);
    let seen = initialState();
    for (const [i, event] of events.entries()) {
      live.push(event);
      if (i % 50 === 0) seen = live.flush().reduce(reduce, seen);
      if (i === 500) {
        const midway = live.replay().reduce(reduce, initialState());
        assert.ok(midway.cases.size > 0 && midway.run?.complete === false);
      }
    }
    seen = live.flush().reduce(reduce, seen);
    const replayed = live.replay().reduce(reduce, initialState());
    assert.deepEqual(replayed.results.size, seen.results.size);
    assert.deepEqual(new Set(replayed.results.items), new Set(seen.results.items));
    assert.deepEqual(replayed.run, seen.run);
  });

  it('computes live aggregates that equal the report of the same run (the real CLI, jsonl events)', async () => {
    ensureBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'evallens-live-'));
    try {
      const lines = [
        'Refunds take 30 days.',
        'Refunds take 14 days.',
        'We refund in 30 days, always.',
        'No refunds.',
      ].map((output, i) =>
        JSON.stringify({ id: `c${i}`, input: 'How long?', output, expected: 'Refunds take 30 days.' }),
      );
      writeFileSync(join(dir, 'data.jsonl'), `${lines.join('\n')}\n`);
      const config = join(dir, 'live.eval.yaml');
      writeFileSync(
        config,
        'dataset: data.jsonl\nscorers:\n  contains:\n    values: ["30 days"]\n  edit_similarity:\n    threshold: 0.6\npass_criteria:\n  threshold: 0.7\n',
      );
      const runsDir = join(dir, 'runs');
      const cli = await runCli(['run', config, '--reporter', 'jsonl', '--runs-dir', runsDir], { cwd: dir });
      assert.ok(cli.code === 0 || cli.code === 1, cli.stderr);
      const state = createDecodeState();
      const events = [...decodeEvents(cli.stdout, state), ...finishEvents(state)];
      const live = new LiveRun(config);
      for (const event of events) live.push(event);
      const view = live.flush().reduce(reduce, initialState());
      const [runFolder] = readdirSync(runsDir);
      assert.ok(runFolder !== undefined);
      const report = JSON.parse(readFileSync(join(runsDir, runFolder, 'report.json'), 'utf8')) as Report;
      // The live view adds up what it needs while the run goes; the error bars (stderr, intervals, mde:
      // core/stats) come with the finished report, which the view then shows. The rest must agree.
      const STATISTICS = [
        'stderr',
        'ci_low',
        'ci_high',
        'mde',
        'cases',
        'clustered',
        'too_wide',
        'pass_rate_ci_low',
        'pass_rate_ci_high',
        'pass_rate_too_wide',
      ];
      const withoutStatistics = (s: object) =>
        Object.fromEntries(Object.entries(s).filter(([key]) => !STATISTICS.includes(key)));
      assert.ok(
        report.scorers.every((s: object) => 'ci_low' in s),
        'the report carries error bars',
      );
      assert.deepEqual(view.run?.aggregates, report.scorers.map(withoutStatistics));
      assert.deepEqual(view.run?.job, report.job.test);
      assert.deepEqual(view.run?.summary, report.summary);
      assert.deepEqual(
        new Set(view.results.items),
        new Set(report.results),
        'the live table holds the results the report lists',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
