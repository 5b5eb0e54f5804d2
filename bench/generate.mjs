#!/usr/bin/env node
// Deterministic benchmark data and configs for bench/run.mjs.
//
//   node bench/generate.mjs [--cases N] [--peer-cases M] [--seed S] [--out DIR]
//
// Writes to DIR (default bench/out/):
//   cases.jsonl                 N cases {id, input, output, expected} (default 100,000)
//   cases-peer.jsonl            the first M of them (default 2,000)
//   bench.eval.yaml             EvalLens config: 5 deterministic scorers on cases.jsonl
//   bench-peer.eval.yaml        the same scorers on cases-peer.jsonl
//   promptfooconfig.yaml        promptfoo config: the same M cases, echo provider, 5 equivalent asserts
//   expected-counts.json        ground truth: how many cases each assertion should pass, computed here
//                               independently of both tools, for the full N and for the first M
//
// Each case is a customer-support answer. `output` is JSON text {"answer": ..., "confidence": ...} as a
// model would return it; `expected` is the reference JSON text. The cases are a seeded mix of
// exact matches, near misses (1-3 letters changed), wrong answers, valid JSON without `answer`, and
// truncated (invalid) JSON, so that every assertion both passes and fails on the same data.
// No Math.random: a seeded sfc32 PRNG, so the same arguments give byte-identical files.

import { mkdirSync, readFileSync, writeFileSync, createWriteStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { makeRng } from './lib/random.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
/** Changes whenever this file does, so bench/run.mjs regenerates data made by an older generator. */
export const GENERATOR_HASH = createHash('sha256')
  .update(readFileSync(fileURLToPath(import.meta.url)))
  .digest('hex')
  .slice(0, 16);

// --- The five assertions, one definition shared by both configs --------------------------------------

/** Case-sensitive substring; promptfoo `contains`, EvalLens `contains` (case_sensitive defaults to true). */
export const CONTAINS_VALUE = 'refund';
/** Linear-time pattern (no nested quantifiers); ASCII only so promptfoo's `new RegExp(p)` and EvalLens's `u` flag agree. */
export const REGEX_PATTERN = '"confidence":0\\.[89]';
/** EvalLens edit_similarity: pass when 1 - distance / max(length) >= this. */
export const EDIT_SIMILARITY_THRESHOLD = 0.9;
/** promptfoo levenshtein: pass when distance <= this (its default is 5). */
export const LEVENSHTEIN_MAX_DISTANCE = 5;
/** JSON Schema for EvalLens json_schema (parse_output) and promptfoo is-json (value = schema). */
export const JSON_SCHEMA = { type: 'object', required: ['answer'] };

// --- PRNG -------------------------------------------------------------------------------------------

// --- Text -------------------------------------------------------------------------------------------
// ASCII only, no quotes, no braces: nothing needs JSON escaping and nothing looks like a template tag.

const PRODUCTS = [
  'wireless headphones',
  'standing desk',
  'coffee grinder',
  'running shoes',
  'phone case',
  'desk lamp',
  'backpack',
  'water bottle',
  'keyboard',
  'yoga mat',
  'air purifier',
  'rain jacket',
];
const CARRIERS = ['UPS', 'FedEx', 'DHL', 'USPS', 'the local courier'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const PLANS = ['Basic', 'Plus', 'Pro', 'Team'];

/** Answer templates: [question, answer], each a function of a slot filler. Some mention a refund, most do not. */
const TEMPLATES = [
  (f) => [
    `Where is my refund for order #${f.order}?`,
    `Your refund for order #${f.order} was issued on ${f.date} and should reach your card within ${f.days} business days.`,
  ],
  (f) => [
    `Can I get a refund for the ${f.product}?`,
    `Yes. Return the ${f.product} within 30 days and we will refund the full ${f.price} to your original payment method.`,
  ],
  (f) => [
    `Why was my refund smaller than expected?`,
    `The refund excluded the ${f.fee} shipping fee, so you received ${f.price} instead of the full amount.`,
  ],
  (f) => [
    `When will order #${f.order} arrive?`,
    `Order #${f.order} left our warehouse on ${f.date} with ${f.carrier} and is due in ${f.days} days.`,
  ],
  (f) => [
    `How do I reset my password?`,
    `Open Settings, choose Security, then Reset password. We email a link that stays valid for ${f.hours} hours.`,
  ],
  (f) => [
    `Can I change my plan to ${f.plan}?`,
    `You can switch to the ${f.plan} plan at any time; the difference of ${f.price} is prorated on your next invoice.`,
  ],
  (f) => [
    `Is the ${f.product} in stock?`,
    `The ${f.product} is back in stock at our ${f.city} store, with ${f.count} units left as of ${f.date}.`,
  ],
  (f) => [
    `How do I cancel my subscription?`,
    `Go to Billing and press Cancel plan. Access continues until ${f.date}; no further charges are made.`,
  ],
  (f) => [
    `Does the ${f.product} have a warranty?`,
    `The ${f.product} has a ${f.years} year warranty covering defects, but not accidental damage or normal wear.`,
  ],
  (f) => [
    `Why was I charged twice?`,
    `The second charge of ${f.price} is a pending authorization; it drops off within ${f.days} days and no refund request is needed.`,
  ],
];
const ERRORS = [
  'rate limit exceeded',
  'context window exceeded',
  'tool call failed',
  'upstream timeout',
  'content filtered',
];
const CITIES = ['Austin', 'Denver', 'Leeds', 'Lyon', 'Porto', 'Osaka', 'Toronto', 'Dublin'];

function filler(r) {
  return {
    order: String(r.int(10000, 99999)),
    date: `${r.pick(MONTHS)} ${r.int(1, 28)}`,
    days: r.int(2, 10),
    hours: r.int(2, 48),
    product: r.pick(PRODUCTS),
    price: `$${r.int(5, 400)}.${String(r.int(0, 99)).padStart(2, '0')}`,
    fee: `$${r.int(3, 15)}.${String(r.int(0, 99)).padStart(2, '0')}`,
    carrier: r.pick(CARRIERS),
    plan: r.pick(PLANS),
    city: r.pick(CITIES),
    count: r.int(1, 40),
    years: r.int(1, 5),
  };
}

const confidence = (r, lo, hi) => Math.round((lo + r.rand() * (hi - lo)) * 100) / 100;
const jsonText = (answer, conf) => JSON.stringify({ answer, confidence: conf });

/** Changes `k` distinct letters of the answer (each into another lower-case letter): distance exactly k. */
function nearMiss(r, answer, k) {
  const chars = [...answer];
  const letters = [];
  for (let i = 0; i < chars.length; i++) if (/[a-z]/.test(chars[i])) letters.push(i);
  const chosen = new Set();
  while (chosen.size < Math.min(k, letters.length)) chosen.add(letters[r.int(0, letters.length - 1)]);
  for (const i of chosen) {
    let c;
    do c = String.fromCharCode(97 + r.int(0, 25));
    while (c === chars[i]);
    chars[i] = c;
  }
  return chars.join('');
}

/** Case kinds and their shares (per mille). */
const KINDS = [
  ['exact', 450],
  ['near_miss', 250],
  ['wrong_answer', 150],
  ['no_answer_field', 80],
  ['truncated_json', 70],
];

function makeCase(r, index) {
  const t = r.int(0, TEMPLATES.length - 1);
  const [input, answer] = TEMPLATES[t](filler(r));
  const conf = confidence(r, 0.5, 0.99);
  const expected = jsonText(answer, conf);
  let roll = r.int(0, 999);
  let kind = KINDS[0][0];
  for (const [name, share] of KINDS) {
    if (roll < share) {
      kind = name;
      break;
    }
    roll -= share;
  }
  let output;
  switch (kind) {
    case 'exact':
      output = expected;
      break;
    case 'near_miss':
      output = jsonText(nearMiss(r, answer, r.int(1, 3)), conf);
      break;
    case 'wrong_answer': {
      // Another template's answer (so it is far from the reference) with another confidence.
      const other = (t + r.int(1, TEMPLATES.length - 1)) % TEMPLATES.length;
      output = jsonText(TEMPLATES[other](filler(r))[1], confidence(r, 0.5, 0.99));
      break;
    }
    case 'no_answer_field':
      output = JSON.stringify({
        error: r.pick(ERRORS),
        detail: `request ${r.int(100000, 999999)} could not be completed`,
        confidence: confidence(r, 0, 0.4),
      });
      break;
    case 'truncated_json': {
      // A reply cut off mid-stream: the first 40-60% of the reference JSON text.
      const keep = Math.floor(expected.length * (0.4 + r.rand() * 0.2));
      output = expected.slice(0, keep);
      break;
    }
  }
  const id = `c${String(index + 1).padStart(6, '0')}`;
  return { id, input, output, expected, kind };
}

// --- Ground truth (independent of both tools) -------------------------------------------------------

const levRow = new Uint32Array(1024);
/** Plain Levenshtein distance (ASCII data: code units = code points). */
function levenshtein(a, b) {
  if (a === b) return 0;
  if (a.length < b.length) [a, b] = [b, a];
  const n = b.length;
  for (let j = 0; j <= n; j++) levRow[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let prev = levRow[0];
    levRow[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const tmp = levRow[j];
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      levRow[j] = Math.min(levRow[j] + 1, levRow[j - 1] + 1, prev + cost);
      prev = tmp;
    }
  }
  return levRow[n];
}

const REGEX = new RegExp(REGEX_PATTERN, 'u');

function truth(c) {
  const d = levenshtein(c.output, c.expected);
  const sim = 1 - d / Math.max(c.output.length, c.expected.length, 1);
  let schemaOk = false;
  try {
    const v = JSON.parse(c.output);
    schemaOk = v !== null && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, 'answer');
  } catch {}
  return {
    distance: d,
    equals: c.output === c.expected,
    contains: c.output.includes(CONTAINS_VALUE),
    regex: REGEX.test(c.output),
    edit_similarity: sim >= EDIT_SIMILARITY_THRESHOLD,
    levenshtein: d <= LEVENSHTEIN_MAX_DISTANCE,
    json_schema: schemaOk,
  };
}

function newTally() {
  return {
    cases: 0,
    kinds: {},
    pass: { equals: 0, contains: 0, regex: 0, edit_similarity: 0, levenshtein: 0, json_schema: 0 },
    levenshteinCriteriaDisagree: 0,
    distances: { 0: 0, '1-3': 0, '4-15': 0, '16+': 0, minAbove3: Infinity },
    outputChars: { min: Infinity, max: 0, sum: 0 },
  };
}
function addTally(tally, c, t) {
  tally.cases += 1;
  tally.kinds[c.kind] = (tally.kinds[c.kind] ?? 0) + 1;
  for (const k of Object.keys(tally.pass)) if (t[k]) tally.pass[k] += 1;
  if (t.edit_similarity !== t.levenshtein) tally.levenshteinCriteriaDisagree += 1;
  const band = t.distance === 0 ? '0' : t.distance <= 3 ? '1-3' : t.distance <= 15 ? '4-15' : '16+';
  tally.distances[band] += 1;
  if (t.distance > 3) tally.distances.minAbove3 = Math.min(tally.distances.minAbove3, t.distance);
  const len = c.output.length;
  tally.outputChars.min = Math.min(tally.outputChars.min, len);
  tally.outputChars.max = Math.max(tally.outputChars.max, len);
  tally.outputChars.sum += len;
}
function finishTally(tally) {
  const { sum, ...rest } = tally.outputChars;
  return { ...tally, outputChars: { ...rest, mean: Math.round((sum / Math.max(tally.cases, 1)) * 10) / 10 } };
}

// --- Configs ----------------------------------------------------------------------------------------

/** YAML scalar: JSON's double-quoted string is valid YAML, and says exactly what it holds. */
const q = (s) => JSON.stringify(s);

function evallensConfig(datasetFile, n) {
  return `# Generated by bench/generate.mjs: ${n} cases x 5 deterministic scorers (equivalent to the promptfoo asserts).
description: ${q(`EvalLens benchmark, ${n} cases x 5 deterministic scorers`)}
dataset: ${q(datasetFile)}
scorers:
  exact_match:
    mode: text
  contains:
    value: ${q(CONTAINS_VALUE)}
  regex:
    pattern: ${q(REGEX_PATTERN)}
    mode: match
  edit_similarity:
    threshold: ${EDIT_SIMILARITY_THRESHOLD}
  json_schema:
    parse_output: true
    schema:
      type: object
      required: [answer]
`;
}

function promptfooConfig(cases) {
  const lines = [
    `# Generated by bench/generate.mjs: the first ${cases.length} benchmark cases, scored by promptfoo's echo provider.`,
    `description: ${q(`promptfoo side of the EvalLens benchmark, ${cases.length} cases x 5 assertions`)}`,
    `prompts: ["{{out}}"]`,
    `providers: ["echo"]`,
    `defaultTest:`,
    `  assert:`,
    `    - type: contains`,
    `      value: ${q(CONTAINS_VALUE)}`,
    `    - type: regex`,
    `      value: ${q(REGEX_PATTERN)}`,
    `    - type: is-json`,
    `      value: ${JSON.stringify(JSON_SCHEMA)}`,
    `tests:`,
  ];
  for (const c of cases) {
    lines.push(
      `  - description: ${q(c.id)}`,
      `    vars:`,
      `      out: ${q(c.output)}`,
      `    assert:`,
      `      - type: equals`,
      `        value: ${q(c.expected)}`,
      `      - type: levenshtein`,
      `        value: ${q(c.expected)}`,
      `        threshold: ${LEVENSHTEIN_MAX_DISTANCE}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

// --- Main -------------------------------------------------------------------------------------------

export async function generate({
  cases: n = 100_000,
  peerCases: m = 2_000,
  seed = 20261129,
  out = join(HERE, 'out'),
} = {}) {
  if (m > n) throw new Error(`--peer-cases (${m}) must not exceed --cases (${n})`);
  mkdirSync(out, { recursive: true });
  const r = makeRng(seed);
  const all = createWriteStream(join(out, 'cases.jsonl'));
  const full = newTally();
  const peer = newTally();
  const peerCases = [];
  const peerLines = [];
  let buffer = '';
  for (let i = 0; i < n; i++) {
    const c = makeCase(r, i);
    const line = `${JSON.stringify({ id: c.id, input: c.input, output: c.output, expected: c.expected })}\n`;
    buffer += line;
    const t = truth(c);
    addTally(full, c, t);
    if (i < m) {
      addTally(peer, c, t);
      peerCases.push(c);
      peerLines.push(line);
    }
    if (buffer.length > 1 << 20) {
      if (!all.write(buffer)) await once(all, 'drain');
      buffer = '';
    }
  }
  all.end(buffer);
  await once(all, 'finish');
  writeFileSync(join(out, 'cases-peer.jsonl'), peerLines.join(''));
  writeFileSync(join(out, 'bench.eval.yaml'), evallensConfig('cases.jsonl', n));
  writeFileSync(join(out, 'bench-peer.eval.yaml'), evallensConfig('cases-peer.jsonl', m));
  writeFileSync(join(out, 'promptfooconfig.yaml'), promptfooConfig(peerCases));
  const expected = {
    generator: GENERATOR_HASH,
    seed,
    cases: n,
    peerCases: m,
    assertions: {
      contains: CONTAINS_VALUE,
      regex: REGEX_PATTERN,
      editSimilarityThreshold: EDIT_SIMILARITY_THRESHOLD,
      levenshteinMaxDistance: LEVENSHTEIN_MAX_DISTANCE,
      jsonSchema: JSON_SCHEMA,
    },
    full: finishTally(full),
    peer: finishTally(peer),
  };
  writeFileSync(join(out, 'expected-counts.json'), `${JSON.stringify(expected, null, 2)}\n`);
  return expected;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      cases: { type: 'string' },
      'peer-cases': { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
    },
  });
  const num = (v, name) => {
    if (v === undefined) return undefined;
    const x = Number(v);
    if (!Number.isInteger(x) || x < 1) throw new Error(`--${name} must be a whole number of at least 1`);
    return x;
  };
  const started = process.hrtime.bigint();
  const result = await generate({
    cases: num(values.cases, 'cases'),
    peerCases: num(values['peer-cases'], 'peer-cases'),
    seed: num(values.seed, 'seed'),
    ...(values.out ? { out: resolve(values.out) } : {}),
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log(`generate: ${result.cases} cases (${result.peerCases} for the peer) in ${Math.round(ms)} ms`);
  console.log(
    `  full: ${JSON.stringify(result.full.pass)} kinds ${JSON.stringify(result.full.kinds)} output chars ${JSON.stringify(result.full.outputChars)}`,
  );
  console.log(
    `  peer: ${JSON.stringify(result.peer.pass)} levenshtein/edit_similarity criteria disagree on ${result.peer.levenshteinCriteriaDisagree}`,
  );
}
