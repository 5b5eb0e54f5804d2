// The language-server benchmark's results as Markdown (bench/out/lsp/results.md, and bench/README.md's
// "Language server" section is copied from it).
import { round } from './lib/stats.mjs';

/** yaml-language-server waits this long after a change before it validates (a fixed debounce, not a setting). */
export const PEER_DEBOUNCE_MS = 200;

const ms = (x) => (x === undefined ? '—' : `${round(x, 1)}`);
const ratio = (peer, ours) =>
  peer === undefined || ours === undefined || ours <= 0 ? '—' : `${round(peer / ours, 1)}×`;
const met = (ok) => (ok ? 'yes' : '**no**');

export function renderLspResults({ machine, summary, config, rounds, changes, completions, rssConfigs, warmup }) {
  const ev = summary.evallens;
  const peer = summary.yamlls;
  const out = [];
  out.push(`#### Language server benchmark — ${machine.date}`, '');
  out.push(
    `Machine: ${machine.nproc} cores (${machine.cpuModel}), ${machine.totalMemGiB} GiB RAM, Node ${machine.node}. EvalLens ${machine.evallensCommit}` +
      `${peer ? `, yaml-language-server ${machine.peer}` : ''}. Load average at start ${machine.loadAvgAtStart.join(' / ')}, at end ${machine.loadAvgAtEnd.join(' / ')}.`,
  );
  out.push(
    `File: ${config.lineCount.toLocaleString('en')} lines, 500 list-form scorer entries, ${config.seeded.length} seeded mistakes. ${rounds} rounds, each with fresh server processes; ` +
      `${changes} one-line changes and ${completions} completion requests a round after ${warmup} warm-up ones each. Latencies in ms over stdio JSON-RPC; first diagnostics is the median of the rounds, the rest are percentiles over all rounds' samples.`,
    '',
  );

  out.push('| | EvalLens | yaml-language-server | ratio (yaml-ls ÷ EvalLens) |', '|---|---:|---:|---:|');
  const row = (label, key) =>
    out.push(
      `| ${label} | ${ms(ev[key])} | ${peer ? ms(peer[key]) : '—'} | ${peer ? ratio(peer[key], ev[key]) : '—'} |`,
    );
  row(
    'first diagnostics after didOpen, first open (nothing kept): first publish (EvalLens: the visible part)',
    'firstMs',
  );
  row('server CPU ms (all threads) from didOpen to the first publish, first open', 'firstCpuMs');
  row('complete diagnostics after didOpen, first open (yaml-ls publishes once)', 'completeMs');
  row('server CPU ms from didOpen to the complete diagnostics, first open', 'completeCpuMs');
  const re = ev.reopen;
  if (re !== undefined) {
    out.push(
      `| first diagnostics after didOpen, reopen (a new server; the previous session's analysis kept) | ${ms(re.firstMs)} | ${peer ? ms(peer.firstMs) : '—'} | ${peer ? ratio(peer.firstMs, re.firstMs) : '—'} |`,
      `| server CPU ms from didOpen to first diagnostics, reopen | ${ms(re.firstCpuMs)} | ${peer ? ms(peer.firstCpuMs) : '—'} | ${peer ? ratio(peer.firstCpuMs, re.firstCpuMs) : '—'} |`,
      `| reopen: full analysis done (a hover answered) | ${ms(re.analysedMs)} | | |`,
    );
  }
  row('re-validation after a one-line change, p50', 'revalidateP50');
  row('re-validation after a one-line change, p95', 'revalidateP95');
  if (peer) {
    const less = (x) => (x === undefined ? undefined : x - 200);
    out.push(
      `| re-validation p50, yaml-ls without its fixed ${PEER_DEBOUNCE_MS} ms debounce | ${ms(ev.revalidateP50)} | ${ms(less(peer.revalidateP50))} | ${ratio(less(peer.revalidateP50), ev.revalidateP50)} |`,
    );
  }
  if (ev.completionUnsupported) out.push('| completion | not supported yet (MethodNotFound) | | |');
  row('completion p50', 'completionP50');
  row('completion p95', 'completionP95');
  for (const entries of [50, 500]) {
    const m = (s) => s?.memory?.[entries];
    const cell = (s) =>
      m(s) === undefined
        ? '—'
        : `${round(m(s).after.rssMB)} (peak ${round(m(s).after.hwmMB)}; ${round(m(s).before.rssMB)} at start)`;
    out.push(
      `| RSS MB after opening ${rssConfigs} configs of ${m(ev)?.lines?.toLocaleString('en') ?? '?'} lines | ${cell(ev)} | ${peer ? cell(peer) : '—'} | ${peer && m(ev) ? ratio(m(peer).after.rssMB, m(ev).after.rssMB) : '—'} |`,
    );
  }
  out.push('');

  const old = summary.evallensOld;
  if (old !== undefined) {
    out.push(
      `First open beside the old build (\`--old\`), the same rounds (median; each round's figure in brackets):`,
      '',
      '| first open | EvalLens | EvalLens old build | yaml-language-server | yaml-ls ÷ EvalLens | yaml-ls ÷ old |',
      '|---|---:|---:|---:|---:|---:|',
    );
    const all = (s, key) => (s?.[`${key}All`] ? ` (${s[`${key}All`].join(', ')})` : '');
    for (const [label, key] of [
      ['first publish, ms', 'firstMs'],
      ['first publish, server CPU ms', 'firstCpuMs'],
      ['complete diagnostics, ms', 'completeMs'],
      ['complete diagnostics, server CPU ms', 'completeCpuMs'],
    ]) {
      out.push(
        `| ${label} | ${ms(ev[key])}${all(ev, key)} | ${ms(old[key])}${all(old, key)} | ${peer ? `${ms(peer[key])}${all(peer, key)}` : '—'} | ${peer ? ratio(peer[key], ev[key]) : '—'} | ${peer ? ratio(peer[key], old[key]) : '—'} |`,
      );
    }
    out.push(
      `| diagnostics in the first publish | ${ev.firstCounts.join(', ')} | ${old.firstCounts.join(', ')} | ${peer ? peer.firstCounts.join(', ') : '—'} | | |`,
      '',
    );
  } else {
    out.push(
      `EvalLens's first publish held ${ev.firstCounts.join(', ')} diagnostics (by round); the complete set ${ev.diagnostics}.`,
      '',
    );
  }

  out.push('Targets from the issue:', '', '| target | measured | met |', '|---|---:|:---:|');
  out.push(
    `| EvalLens full validation p50 ≤ 15 ms (re-validation after a change, round trip) | ${ms(ev.revalidateP50)} | ${met(ev.revalidateP50 <= 15)} |`,
  );
  out.push(
    `| EvalLens completion p95 ≤ 30 ms | ${ev.completionUnsupported ? 'not supported yet' : ms(ev.completionP95)} | ${ev.completionUnsupported ? '—' : met(ev.completionP95 <= 30)} |`,
  );
  if (peer) {
    if (re !== undefined) {
      out.push(
        `| at least 3× faster than yaml-language-server: first diagnostics on reopen (same diagnostics as the first open: ${re.sameAsFirstOpen ? 'yes' : '**no**'}; published again after the analysis: ${re.laterPublishes} times) | ${ratio(peer.firstMs, re.firstMs)} | ${met(peer.firstMs / re.firstMs >= 3)} |`,
      );
    }
    for (const [label, key] of [
      ['first diagnostics, first open: first publish (the visible part)', 'firstMs'],
      ['first diagnostics, first open: complete diagnostics', 'completeMs'],
      ['re-validation p50', 'revalidateP50'],
      ['re-validation p95', 'revalidateP95'],
      ['completion p50', 'completionP50'],
      ['completion p95', 'completionP95'],
    ]) {
      if (key.startsWith('completion') && ev.completionUnsupported) continue;
      out.push(
        `| at least 3× faster than yaml-language-server: ${label} | ${ratio(peer[key], ev[key])} | ${met(peer[key] / ev[key] >= 3)} |`,
      );
    }
  }
  out.push('');

  out.push(
    'What each reports on the same file (seeded mistakes; "schema can" says whether the mistake is visible to a generic validator of the published schema):',
    '',
  );
  out.push(
    `| seeded mistake | schema can | EvalLens | ${peer ? 'yaml-language-server |' : ''}`,
    `|---|:---:|---|${peer ? '---|' : ''}`,
  );
  config.seeded.forEach((mistake, i) => {
    const cell = (s) =>
      s.caught[i].messages.length === 0
        ? '**missed**'
        : s.caught[i].messages.map((m) => m.replace(/\|/g, '\\|')).join('<br>');
    out.push(
      `| ${mistake.kind} (line ${mistake.firstLine + 1}) | ${mistake.schemaCan ? 'yes' : 'no'} | ${cell(ev)} | ${peer ? `${cell(peer)} |` : ''}`,
    );
  });
  const caughtCount = (s) => s.caught.filter((c) => c.messages.length > 0).length;
  out.push(
    '',
    `Caught: EvalLens ${caughtCount(ev)} of ${config.seeded.length}${peer ? `, yaml-language-server ${caughtCount(peer)} of ${config.seeded.length}` : ''}.`,
  );
  for (const [name, s] of [
    ['EvalLens', ev],
    ['yaml-language-server', peer],
  ]) {
    if (!s) continue;
    out.push(
      '',
      `${name}: ${s.diagnostics} diagnostics by kind: ${s.kinds.map(([k, n]) => `\`${k}\` ${n}`).join(', ')}.`,
    );
    if (s.elsewhere.length > 0)
      out.push(
        `${name} also reports ${s.elsewhere.length} on lines with no seeded mistake: ${s.elsewhere.slice(0, 5).join('; ')}${s.elsewhere.length > 5 ? '; …' : ''}.`,
      );
    const items = Object.entries(s.completionItems ?? {}).map(
      ([what, ns]) => `${what}: ${Math.min(...ns)}–${Math.max(...ns)} items`,
    );
    if (items.length > 0) out.push(`${name} completion answers: ${items.join(', ')}.`);
    if (s.stderr.trim() !== '' || s.logErrors.length > 0)
      out.push(`${name} stderr/log errors: ${(s.stderr.trim() || s.logErrors.join(' | ')).slice(0, 300)}`);
  }
  out.push('');
  return out.join('\n');
}
