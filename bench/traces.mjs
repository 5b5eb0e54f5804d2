#!/usr/bin/env node
// Trace-scorer benchmark: N recorded agent traces of S steps each through all 14 trace scorers, against
// exact_match alone on the same file (the issue: "the trace scorers should not be more than 3× slower
// per evaluation than exact_match").
//
//   npm run build && node bench/traces.mjs [options]
//
// Options:
//   --cases N      cases (default 10000)
//   --steps S      steps per trace (default 50; at least 30)
//   --rounds K     measured rounds (default 5)
//   --warmup W     unmeasured rounds before them (default 1: fills the file cache)
//   --out DIR      data, configs, reports and results (default bench/out/traces)
//   --cli PATH     the EvalLens CLI to run (default dist/cli.js)
//
// Writes DIR/traces.jsonl (the dataset), DIR/exact.eval.yaml (a: exact_match alone),
// DIR/traces.eval.yaml (b: the 14 trace scorers, one instance each), DIR/exact14.eval.yaml (c: 14
// instances of exact_match, a baseline with as many evaluations per case as b), DIR/truth.json (the
// verdicts each scorer must give, computed here from the generated data, independently of EvalLens),
// then per round runs a, b and c as separate whole processes and writes DIR/results.md (also printed)
// and DIR/results.json. The dataset is reused while the generator, N and S are unchanged.
//
// Each run is a whole process: wall time is process.hrtime around the spawn, peak RSS and CPU time come
// from GNU time (`/usr/bin/time -f '%M %e %U %S'`). Every run is checked: its JSON report is read line
// by line and must hold cases × scorers results covering every case, and each scorer's pass/fail counts
// must equal the ground truth (any unsupported, error, inconclusive or timeout is a problem: the data is
// built so that every scorer can score every case). Exit 1 when any check failed.
//
// No Math.random: a seeded sfc32 PRNG, so the same arguments give a byte-identical dataset.

import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import os from 'node:os';
import { makeRng } from './lib/random.mjs';
import { readReport } from './lib/report.mjs';
import { capture, round, stat } from './lib/stats.mjs';
import { failure, wholeNumber } from './lib/args.mjs';
import { GNU_TIME, measure } from './lib/measure.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const SEED = 20261201;
/** Changes whenever this file does, so a dataset made by an older generator is regenerated. */
const GENERATOR_HASH = createHash('sha256')
  .update(readFileSync(fileURLToPath(import.meta.url)))
  .digest('hex')
  .slice(0, 16);
/** The issue's bound: a trace-scorer evaluation costs at most this many exact_match evaluations. */
const BOUND = 3;

// --- Arguments --------------------------------------------------------------------------------------

const { values: args } = parseArgs({
  options: {
    cases: { type: 'string', default: '10000' },
    steps: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    out: { type: 'string' },
    cli: { type: 'string' },
  },
});
const die = failure('traces.mjs');
const int = wholeNumber(die);
const N = int(args.cases, 'cases', 1);
const S = int(args.steps, 'steps', 30);
const ROUNDS = int(args.rounds, 'rounds', 1);
const WARMUP = int(args.warmup, 'warmup', 0);
const OUT = args.out ? resolve(args.out) : join(HERE, 'out', 'traces');
const CLI = args.cli ? resolve(args.cli) : join(ROOT, 'dist', 'cli.js');

// --- The scorers ------------------------------------------------------------------------------------

/** Tools and servers of the simulated agent (canonical `<server>__<tool>` names). */
const REFUND = 'orders__refund';
const DELETE = 'orders__delete_order';
const REFUND_RULES = { orderId: '^ORD-[0-9]{6}$', maxAmount: 500, currencies: ['USD', 'EUR', 'GBP'] };
const REQUIRED_STEPS = ['crm__get_customer', 'orders__get_order', REFUND];
const HANDOFF = { from: 'triage', to: 'billing' };
const SKILL_PREFIX = 'plugin:';
const RETRIEVAL_K = 5;
const EXECUTION_ORDER_THRESHOLD = 0.8;
/** Pass marks of the seven counters (all `lower_is_better`); agent_steps scales with --steps. */
const COUNTER_LIMITS = {
  turn_count: 5,
  agent_steps: Math.round(S * 0.8),
  end_to_end_latency: 55_000,
  tool_call_latency: 25_000,
  token_consumption: 150_000,
  tokens_processed: 200_000,
  effective_billed_tokens: 100_000,
};

/** The 14 trace scorers of configuration b, each configured as a user checking this agent would. */
const TRACE_SCORERS = {
  trajectory_matcher: {},
  turn_count: { threshold: COUNTER_LIMITS.turn_count, lower_is_better: true },
  agent_steps: { threshold: COUNTER_LIMITS.agent_steps, lower_is_better: true },
  end_to_end_latency: { threshold: COUNTER_LIMITS.end_to_end_latency, lower_is_better: true },
  tool_call_latency: { threshold: COUNTER_LIMITS.tool_call_latency, lower_is_better: true },
  token_consumption: { threshold: COUNTER_LIMITS.token_consumption, lower_is_better: true },
  tokens_processed: { threshold: COUNTER_LIMITS.tokens_processed, lower_is_better: true },
  effective_billed_tokens: { threshold: COUNTER_LIMITS.effective_billed_tokens, lower_is_better: true },
  skills_trajectory: { ignore_prefix: SKILL_PREFIX },
  tool_call_match: {
    tool: REFUND,
    params: [
      { path: 'order_id', rule: 'matches', value: REFUND_RULES.orderId },
      { path: 'amount', rule: 'max', value: REFUND_RULES.maxAmount },
      { path: 'currency', rule: 'one_of', value: REFUND_RULES.currencies },
    ],
    forbidden_tools: [DELETE],
  },
  trajectory: { required_steps: REQUIRED_STEPS, forbidden_tools: [DELETE], handoffs: [HANDOFF] },
  retrieval_relevance: { metric: 'f1', k: RETRIEVAL_K },
  citation_support: {},
  execution_order: { should_consider_ordering: true, threshold: EXECUTION_ORDER_THRESHOLD },
};
const TRACE_KEYS = Object.keys(TRACE_SCORERS);
const EXACT = { mode: 'text', expected_path: 'answer' };
const COPIES = TRACE_KEYS.length;

/** The three configurations: what each runs and how many evaluations per case. */
const CONFIGS = [
  { id: 'a', file: 'exact.eval.yaml', label: 'exact_match alone', scorers: ['exact_match'] },
  { id: 'b', file: 'traces.eval.yaml', label: `the ${COPIES} trace scorers`, scorers: TRACE_KEYS },
  {
    id: 'c',
    file: 'exact14.eval.yaml',
    label: `exact_match × ${COPIES}`,
    scorers: Array.from({ length: COPIES }, (_, i) => `exact_match_${i + 1}`),
  },
];

// --- PRNG -------------------------------------------------------------------------------------------

// --- The simulated agent ----------------------------------------------------------------------------

/** How each harness records tool names: MCP calls and native (harness) tools. */
const HARNESSES = [
  {
    id: 'claude',
    share: 0.35,
    mcp: (s, t) => ({ name: `mcp__${s}__${t}` }),
    native: { read: 'Read', grep: 'Grep', shell: 'Bash', fetch: 'WebFetch', todo: 'TodoWrite' },
  },
  {
    id: 'gemini',
    share: 0.25,
    mcp: (s, t) => ({ name: `mcp_${s}_${t}` }),
    native: {
      read: 'read_file',
      grep: 'search_file_content',
      shell: 'run_shell_command',
      fetch: 'web_fetch',
      todo: 'write_todos',
    },
  },
  {
    id: 'agy',
    share: 0.15,
    mcp: null,
    native: {
      read: 'view_file',
      grep: 'grep_search',
      shell: 'run_command',
      fetch: 'read_url_content',
      todo: 'update_plan',
    },
  },
  {
    id: 'native',
    share: 0.25,
    mcp: (s, t) => ({ name: `${s}__${t}` }),
    native: { read: 'read_file', grep: 'grep', shell: 'shell', fetch: 'http_get', todo: 'todo' },
  },
];

const SCENARIOS = [
  {
    id: 'refund',
    share: 0.55,
    plan: [
      'crm__get_customer',
      'orders__list_orders',
      'orders__get_order',
      'billing__get_invoice',
      REFUND,
      'crm__add_note',
    ],
  },
  {
    id: 'shipping',
    share: 0.25,
    plan: [
      'crm__get_customer',
      'orders__get_order',
      'shipping__track_package',
      'shipping__create_label',
      'crm__add_note',
    ],
  },
  {
    id: 'billing',
    share: 0.2,
    plan: ['crm__get_customer', 'billing__get_invoice', 'billing__issue_credit', 'crm__add_note'],
  },
];
const FILLER_MCP = [
  'kb__search',
  'kb__get_article',
  'orders__get_order',
  'crm__search_customers',
  'shipping__track_package',
  'orders__list_orders',
];
const NATIVE_KINDS = ['read', 'grep', 'shell', 'fetch', 'todo'];
const SKILLS = ['refund-policy', 'tone-guide', 'escalation', 'fraud-check', 'shipping-rates', 'apology-templates'];
const OPENERS = {
  refund: 'The item arrived damaged and I would like a refund.',
  shipping: 'I need to send the item back; can you give me a return label?',
  billing: 'I was charged twice for this order.',
};
const AGENTS = ['billing', 'shipping', 'fraud'];
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
];
const CARRIERS = ['UPS', 'DHL', 'FedEx', 'USPS'];
const FILES = [
  'policies/refunds.md',
  'policies/shipping.md',
  'src/orders/refund.ts',
  'config/limits.yaml',
  'README.md',
  'docs/escalation.md',
];

const weighted = (rng, list) => {
  let x = rng.rand();
  for (const item of list) {
    if ((x -= item.share) < 0) return item;
  }
  return list[list.length - 1];
};

/** Arguments and a result for one call of a canonical MCP tool. */
function mcpCall(rng, tool, ctx) {
  const order = ctx.orderId;
  switch (tool) {
    case 'crm__get_customer':
      return {
        args: { customer_id: ctx.customerId, include: ['orders', 'notes'] },
        result: {
          id: ctx.customerId,
          name: ctx.name,
          tier: rng.pick(['standard', 'plus', 'business']),
          since: `20${rng.int(15, 25)}-0${rng.int(1, 9)}-1${rng.int(0, 9)}`,
          open_tickets: rng.int(0, 3),
        },
      };
    case 'crm__search_customers':
      return {
        args: { query: ctx.email, limit: 5 },
        result: { matches: [{ id: ctx.customerId, score: 0.98 }], total: 1 },
      };
    case 'crm__add_note':
      return {
        args: {
          customer_id: ctx.customerId,
          note: `Resolved ${ctx.scenario} request for ${order}; customer informed.`,
          visibility: 'internal',
        },
        result: { note_id: `N-${rng.digits(7)}`, created: true },
      };
    case 'orders__list_orders':
      return {
        args: { customer_id: ctx.customerId, status: 'delivered', limit: 10 },
        result: {
          orders: [
            { id: order, total: ctx.amount, currency: ctx.currency },
            { id: `ORD-${rng.digits(6)}`, total: rng.int(5, 400), currency: ctx.currency },
          ],
          next_page: null,
        },
      };
    case 'orders__get_order':
      return {
        args: { order_id: order, fields: ['items', 'payment', 'shipping'] },
        result: {
          id: order,
          status: 'delivered',
          items: [{ sku: `SKU-${rng.digits(5)}`, name: ctx.product, qty: 1, price: ctx.amount }],
          payment: { method: 'card', last4: ctx.last4 },
          currency: ctx.currency,
        },
      };
    case REFUND:
      return {
        args: {
          order_id: ctx.refundOrderId,
          amount: ctx.refundAmount,
          currency: ctx.refundCurrency,
          reason: rng.pick(['damaged', 'not_as_described', 'late_delivery', 'changed_mind']),
          notify_customer: true,
        },
        result: { refund_id: `RF-${rng.digits(8)}`, status: 'pending', eta_days: rng.int(3, 10) },
      };
    case DELETE:
      return { args: { order_id: order, confirm: true }, result: { deleted: true } };
    case 'billing__get_invoice':
      return {
        args: { invoice_id: `INV-${rng.digits(7)}` },
        result: { amount_due: 0, paid: ctx.amount, currency: ctx.currency, lines: rng.int(1, 4) },
      };
    case 'billing__issue_credit':
      return {
        args: { customer_id: ctx.customerId, amount: rng.int(5, 80), currency: ctx.currency, memo: 'goodwill credit' },
        result: { credit_id: `CR-${rng.digits(6)}`, balance: rng.int(5, 200) },
      };
    case 'shipping__track_package':
      return {
        args: { tracking_number: `1Z${rng.digits(16)}`, carrier: rng.pick(CARRIERS) },
        result: {
          status: rng.pick(['in_transit', 'delivered', 'exception']),
          last_scan: `Depot ${rng.int(10, 99)}`,
          events: rng.int(2, 9),
        },
      };
    case 'shipping__create_label':
      return {
        args: { order_id: order, service: rng.pick(['ground', 'express']), return_label: true },
        result: { label_url: `https://labels.example.com/${rng.digits(10)}.pdf`, cost: rng.int(4, 25) },
      };
    case 'kb__search':
      return {
        args: { query: `${ctx.scenario} policy ${ctx.product}`, top_k: 5 },
        result: { hits: [`kb-${rng.digits(4)}`, `kb-${rng.digits(4)}`, `kb-${rng.digits(4)}`] },
      };
    case 'kb__get_article':
      return {
        args: { article_id: `kb-${rng.digits(4)}` },
        result: {
          title: `${ctx.scenario} policy`,
          body: `Customers may request a ${ctx.scenario} within 30 days of delivery; items must be unused.`,
          updated: '2026-10-01',
        },
      };
    default:
      throw new Error(`no arguments for ${tool}`);
  }
}

/** Arguments and a result for one native (harness) tool call. */
function nativeCall(rng, kind) {
  switch (kind) {
    case 'read':
      return {
        args: { file_path: rng.pick(FILES) },
        result: `# Policy\nRefunds over ${REFUND_RULES.maxAmount} need approval.\nLine ${rng.int(1, 400)}: see escalation.`,
      };
    case 'grep':
      return {
        args: { pattern: rng.pick(['refund', 'max_amount', 'escalat']), path: 'policies/' },
        result: `policies/refunds.md:${rng.int(1, 200)}: refund window is 30 days`,
      };
    case 'shell':
      return {
        args: { command: rng.pick(['date -u', 'cat config/limits.yaml', 'ls policies']) },
        result: { exit_code: 0, stdout: `ok ${rng.digits(4)}` },
      };
    case 'fetch':
      return {
        args: { url: `https://status.example.com/api/${rng.pick(['payments', 'shipping'])}` },
        result: { status: 200, body: 'all systems operational' },
      };
    default:
      return {
        args: {
          todos: [
            { content: 'check order', status: 'completed' },
            { content: 'issue refund', status: 'in_progress' },
          ],
        },
        result: 'ok',
      };
  }
}

/**
 * One case and the verdict each scorer must give on it. The verdicts are computed here from what was
 * generated, by the rules the scorers document (their schemas and docs), with no EvalLens code.
 */
function makeCase(rng, index) {
  const harness = weighted(rng, HARNESSES);
  const scenario = weighted(rng, SCENARIOS);
  const ctx = {
    scenario: scenario.id,
    customerId: `C-${rng.digits(6)}`,
    name: rng.pick(['Ana Ruiz', 'Ben Okafor', 'Chen Wei', 'Dana Levi', 'Emil Novak', 'Farah Haddad']),
    email: `user${rng.digits(5)}@example.com`,
    orderId: `ORD-${rng.digits(6)}`,
    product: rng.pick(PRODUCTS),
    amount: rng.int(900, 69900) / 100,
    currency: rng.pick(['USD', 'EUR', 'GBP']),
    last4: rng.digits(4),
  };
  // The refund call's arguments: mostly within the rules, sometimes not.
  ctx.refundOrderId = rng.chance(0.04) ? ctx.orderId.toLowerCase() : ctx.orderId;
  ctx.refundAmount = rng.chance(0.12) ? rng.int(50100, 90000) / 100 : Math.min(ctx.amount, REFUND_RULES.maxAmount);
  ctx.refundCurrency = rng.chance(0.05) ? 'JPY' : ctx.currency;

  // Step budget: 2 messages per turn, retrievals, a handoff sometimes, skills; the rest are tool calls.
  const turns = rng.int(3, 6);
  const retrievals = rng.int(1, 2);
  const handoff = rng.chance(scenario.id === 'refund' ? 0.7 : 0.3);
  const skillCount = rng.int(1, 3);
  const callCount = S - 2 * turns - retrievals - (handoff ? 1 : 0) - skillCount;

  // Tool calls: the scenario's plan in order, fillers (MCP and native) in between.
  const plan = [...scenario.plan];
  const fillers = [];
  const deleteCall = rng.chance(0.03);
  if (deleteCall) fillers.push(DELETE);
  while (plan.length + fillers.length < callCount)
    fillers.push(rng.chance(0.5) ? rng.pick(FILLER_MCP) : `native:${rng.pick(NATIVE_KINDS)}`);
  rng.shuffle(fillers);
  const slots = new Set(rng.shuffle(Array.from({ length: callCount }, (_, i) => i)).slice(0, plan.length));
  const sequence = [];
  for (let i = 0, p = 0, f = 0; i < callCount; i++) sequence.push(slots.has(i) ? plan[p++] : fillers[f++]);

  // Calls per turn: contiguous chunks, at least one each.
  const cuts = new Set();
  while (cuts.size < turns - 1) cuts.add(rng.int(1, callCount - 1));
  const bounds = [0, ...[...cuts].sort((x, y) => x - y), callCount];

  const retrievalTurns = Array.from({ length: retrievals }, (_, i) => Math.min(i, turns - 1));
  const skillTurns = Array.from({ length: skillCount }, () => rng.int(0, turns - 1));
  const handoffTurn = handoff ? rng.int(0, Math.min(1, turns - 1)) : -1;
  const handoffTo = scenario.id === 'refund' ? HANDOFF.to : rng.pick(AGENTS);

  const steps = [];
  const calls = []; // {canonical, args, error} in start order, for the ground truth
  const turnFigures = [];
  const retrievedLists = [];
  const activated = [];
  const docPool = () => `kb-${String(rng.int(1, 5000)).padStart(4, '0')}`;
  let clock = 0;
  let modelTotal = 0;
  let toolTotal = 0;
  let callNo = 0;
  let prompt = rng.int(6000, 14000);
  for (let t = 0; t < turns; t++) {
    const userText =
      t === 0
        ? `Hi, this is ${ctx.name}. ${OPENERS[scenario.id]} My order is ${ctx.orderId} (${ctx.product}, ${ctx.amount} ${ctx.currency}).`
        : rng.pick([
            'Yes, please go ahead.',
            'The card ending ' + ctx.last4 + ' is fine.',
            'How long will it take?',
            'Can you also send a return label?',
            'Thanks, anything else you need from me?',
          ]);
    steps.push({ type: 'message', role: 'user', content: userText, turn: t });
    const modelLatency = rng.int(1500, 9000);
    clock += rng.int(300, 1200);
    for (let r = 0; r < retrievals; r++) {
      if (retrievalTurns[r] !== t) continue;
      const ids = Array.from({ length: rng.int(5, 8) }, docPool);
      retrievedLists.push(ids);
      steps.push({ type: 'retrieval', query: `${ctx.scenario} policy for ${ctx.product}`, document_ids: ids, turn: t });
    }
    if (handoffTurn === t)
      steps.push({ type: 'handoff', from: HANDOFF.from, to: handoffTo, reason: `${ctx.scenario} request`, turn: t });
    for (let k = 0; k < skillCount; k++) {
      if (skillTurns[k] !== t) continue;
      const skill = rng.pick(SKILLS);
      activated.push(skill);
      steps.push({ type: 'skill', name: rng.chance(0.3) ? `${SKILL_PREFIX}${skill}` : skill, turn: t });
    }
    let turnToolMs = 0;
    let turnCalls = 0;
    for (let c = bounds[t]; c < bounds[t + 1]; c++) {
      const item = sequence[c];
      const duration = Math.round(20 + rng.rand() ** 3 * 2400);
      const start = clock;
      clock += duration;
      const failed = rng.chance(0.04);
      let step;
      let canonical;
      let argsForRules;
      if (item.startsWith('native:')) {
        const kind = item.slice('native:'.length);
        const { args: a, result } = nativeCall(rng, kind);
        canonical = harness.native[kind];
        argsForRules = a;
        step = { type: 'tool_call', id: `call_${index}_${callNo}`, name: canonical, arguments: a, result };
      } else {
        const [server, tool] = item.split('__');
        const { args: a, result } = mcpCall(rng, item, ctx);
        canonical = item;
        argsForRules = a;
        if (harness.mcp) {
          step = {
            type: 'tool_call',
            id: `call_${index}_${callNo}`,
            ...harness.mcp(server, tool),
            arguments: a,
            result,
          };
        } else {
          // Antigravity wraps every MCP call in call_mcp_tool; some recordings keep the fields JSON-encoded.
          const encoded = rng.chance(0.2);
          step = {
            type: 'tool_call',
            id: `call_${index}_${callNo}`,
            name: 'call_mcp_tool',
            arguments: {
              ServerName: encoded ? JSON.stringify(server) : server,
              ToolName: tool,
              Arguments: encoded ? JSON.stringify(a) : a,
            },
            result,
          };
        }
      }
      if (failed) {
        delete step.result;
        step.error = rng.pick([
          'upstream timeout after 30000 ms',
          '503 service unavailable',
          'rate limited: retry after 2 s',
        ]);
      }
      Object.assign(step, { start_ms: start, end_ms: start + duration, duration_ms: duration, turn: t });
      steps.push(step);
      calls.push({ name: canonical, args: argsForRules, error: failed });
      turnToolMs += duration;
      turnCalls++;
      callNo++;
      clock += rng.int(50, 600); // the model reads the result
    }
    const assistantText =
      t === turns - 1
        ? 'final'
        : rng.pick([
            'Let me check that for you.',
            'I found your order and am looking at the refund policy.',
            'One moment while I process this.',
          ]);
    steps.push({ type: 'message', role: 'assistant', content: assistantText, turn: t });
    clock += modelLatency;
    // Tokens: the prompt grows turn after turn; most of it is cached after the first turn.
    prompt += rng.int(2000, 9000);
    const cached = t === 0 ? rng.int(0, Math.floor(prompt / 2)) : Math.floor(prompt * (0.6 + rng.rand() * 0.32));
    const candidates = rng.int(150, 1800);
    const thoughts = rng.int(0, 2500);
    const toolTokens = rng.int(200, 3000);
    const tokens = {
      input: prompt - cached,
      prompt,
      candidates,
      total: prompt + candidates + thoughts + toolTokens,
      cached,
      cache_creation: rng.int(0, 5000),
      thoughts,
      tool: toolTokens,
    };
    turnFigures.push({ tokens, model_latency_ms: modelLatency, tool_duration_ms: turnToolMs, tool_calls: turnCalls });
    modelTotal += modelLatency;
    toolTotal += turnToolMs;
  }

  // Citations: ids retrieved, sometimes one that was not.
  const retrieved = [...new Set(retrievedLists.flat())];
  const citations = Array.from({ length: rng.int(1, 3) }, () => rng.pick(retrieved));
  if (rng.chance(0.15)) citations.push(docPool());

  // The answer, and the reference it is compared with.
  const eta = rng.int(3, 10);
  const reference =
    scenario.id === 'refund'
      ? `Refund of ${ctx.refundAmount} ${ctx.currency} issued for order ${ctx.orderId}; it reaches the card ending ${ctx.last4} within ${eta} business days.`
      : scenario.id === 'shipping'
        ? `A return label for order ${ctx.orderId} is on its way to ${ctx.email}; drop the ${ctx.product} at any ${rng.pick(CARRIERS)} point.`
        : `A goodwill credit was added to account ${ctx.customerId}; it applies to your next invoice automatically.`;
  const answer = rng.chance(0.55)
    ? reference
    : reference.replace(/\d+ business days|any \w+ point|next invoice/, (m) =>
        m.endsWith('days')
          ? `${eta + 2} business days`
          : m.startsWith('any')
            ? 'the nearest drop-off point'
            : 'following invoice',
      );
  steps[steps.length - 1].content = answer;

  // Expected values for the trace scorers, mostly right, sometimes off.
  const mcpCalled = [...new Set(calls.map((c) => c.name).filter(looksCanonicalMcp))];
  let trajectory = [...mcpCalled];
  const tjRoll = rng.rand();
  if (tjRoll < 0.15) trajectory.splice(rng.int(0, trajectory.length - 1), 1);
  else if (tjRoll < 0.3) trajectory.push('orders__escalate');
  if (rng.chance(0.3)) trajectory.push(harness.native.read); // a native name, dropped by filter_native_tools
  rng.shuffle(trajectory);
  let skills = [...new Set(activated)];
  const skRoll = rng.rand();
  if (skRoll < 0.12) skills = skills.slice(1);
  else if (skRoll < 0.22) skills.push(rng.pick(SKILLS.filter((x) => !skills.includes(x))));
  const relevant = [...new Set([...retrieved.slice(0, rng.int(1, 3)), ...(rng.chance(0.5) ? [docPool()] : [])])];
  rng.shuffle(relevant);
  let tools = [...scenario.plan];
  const eoRoll = rng.rand();
  if (eoRoll < 0.15) {
    const i = rng.int(0, tools.length - 2);
    [tools[i], tools[i + 1]] = [tools[i + 1], tools[i]];
  } else if (eoRoll < 0.3) {
    tools.splice(rng.int(0, tools.length), 0, 'orders__escalate');
    tools.splice(rng.int(0, tools.length), 0, 'crm__verify_identity');
  }

  const evalCase = {
    id: `trace-${String(index + 1).padStart(6, '0')}`,
    input: steps[0].content,
    output: answer,
    expected: { answer: reference, trajectory, skills, relevant_ids: relevant, tools },
    trace: { steps, turns: turnFigures, latency_ms: clock, citations },
    metadata: { harness: harness.id, scenario: scenario.id },
  };

  // --- Ground truth ---
  const sum = (f) => turnFigures.reduce((acc, x) => acc + f(x), 0);
  const verdict = (ok) => (ok ? 'pass' : 'fail');
  const called = calls.map((c) => c.name);
  const sameSet = (x, y) => {
    const a = new Set(x);
    const b = new Set(y);
    return a.size === b.size && [...a].every((v) => b.has(v));
  };
  const refundOk = (a) =>
    typeof a.order_id === 'string' &&
    new RegExp(REFUND_RULES.orderId, 'u').test(a.order_id) &&
    typeof a.amount === 'number' &&
    a.amount <= REFUND_RULES.maxAmount &&
    REFUND_RULES.currencies.includes(a.currency);
  let next = 0;
  const inOrder = REQUIRED_STEPS.every((name) => {
    while (next < calls.length) {
      const c = calls[next++];
      if (c.name === name && !c.error) return true;
    }
    return false;
  });
  const handedOff = steps.some((s) => s.type === 'handoff' && s.to === HANDOFF.to && s.from === HANDOFF.from);
  const top = retrieved.slice(0, RETRIEVAL_K);
  const hits = top.filter((id) => relevant.includes(id)).length;
  const precision = hits / RETRIEVAL_K;
  const recall = hits / relevant.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const truth = {
    exact_match: verdict(answer === reference),
    trajectory_matcher: verdict(sameSet(trajectory.filter(looksCanonicalMcp), called.filter(looksCanonicalMcp))),
    turn_count: verdict(turns <= COUNTER_LIMITS.turn_count),
    agent_steps: verdict(sum((x) => x.tool_calls) <= COUNTER_LIMITS.agent_steps),
    end_to_end_latency: verdict(toolTotal + modelTotal <= COUNTER_LIMITS.end_to_end_latency),
    tool_call_latency: verdict(toolTotal <= COUNTER_LIMITS.tool_call_latency),
    token_consumption: verdict(sum((x) => x.tokens.total) <= COUNTER_LIMITS.token_consumption),
    tokens_processed: verdict(
      sum((x) => x.tokens.input + x.tokens.candidates + x.tokens.cached + x.tokens.cache_creation) <=
        COUNTER_LIMITS.tokens_processed,
    ),
    effective_billed_tokens: verdict(
      sum(
        (x) => x.tokens.input * 1 + x.tokens.cached * 0.1 + x.tokens.cache_creation * 1.25 + x.tokens.candidates * 5,
      ) <= COUNTER_LIMITS.effective_billed_tokens,
    ),
    skills_trajectory: verdict(sameSet(skills, activated)),
    tool_call_match: verdict(!called.includes(DELETE) && calls.some((c) => c.name === REFUND && refundOk(c.args))),
    trajectory: verdict(inOrder && !called.includes(DELETE) && handedOff),
    retrieval_relevance: verdict(f1 >= 0.5),
    citation_support: verdict(citations.every((id) => retrieved.includes(id))),
    execution_order: verdict(lcsLength(tools, called) / tools.length >= EXECUTION_ORDER_THRESHOLD),
  };
  return { evalCase, truth };
}

function looksCanonicalMcp(name) {
  const split = name.indexOf('__');
  return split > 0 && split + 2 < name.length;
}

function lcsLength(a, b) {
  let prev = new Array(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++)
      row[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], row[j - 1]);
    prev = row;
  }
  return prev[b.length];
}

// --- Data and configs -------------------------------------------------------------------------------

const yamlScalar = (v) => JSON.stringify(v); // JSON is YAML: quoted strings, numbers, lists, objects
function yamlScorerMap(scorers) {
  const lines = [];
  for (const [key, options] of Object.entries(scorers)) {
    const entries = Object.entries(options);
    if (entries.length === 0) {
      lines.push(`  ${key}: {}`);
      continue;
    }
    lines.push(`  ${key}:`);
    for (const [k, v] of entries) lines.push(`    ${k}: ${yamlScalar(v)}`);
  }
  return lines.join('\n');
}

async function generate() {
  mkdirSync(OUT, { recursive: true });
  const rng = makeRng(SEED);
  const stream = createWriteStream(join(OUT, 'traces.jsonl'));
  const counts = {};
  const bump = (scorer, status) => {
    counts[scorer] ??= {};
    counts[scorer][status] = (counts[scorer][status] ?? 0) + 1;
  };
  let bytes = 0;
  let stepsTotal = 0;
  const kinds = {};
  for (let i = 0; i < N; i++) {
    const { evalCase, truth } = makeCase(rng, i);
    for (const [scorer, status] of Object.entries(truth)) bump(scorer, status);
    for (const s of evalCase.trace.steps) kinds[s.type] = (kinds[s.type] ?? 0) + 1;
    stepsTotal += evalCase.trace.steps.length;
    const line = `${JSON.stringify(evalCase)}\n`;
    bytes += Buffer.byteLength(line);
    if (!stream.write(line)) await once(stream, 'drain');
  }
  stream.end();
  await once(stream, 'finish');
  if (stepsTotal !== N * S) throw new Error(`generated ${stepsTotal} steps, expected ${N} x ${S}`);

  const head = (what, n) =>
    `# Generated by bench/traces.mjs: ${N} cases of ${S}-step agent traces, ${what}.\ndescription: ${yamlScalar(`Trace-scorer benchmark, ${N} cases x ${n}`)}\ndataset: "traces.jsonl"\n`;
  writeFileSync(
    join(OUT, 'exact.eval.yaml'),
    `${head('exact_match alone (the baseline)', 'exact_match')}scorers:\n${yamlScorerMap({ exact_match: EXACT })}\n`,
  );
  writeFileSync(
    join(OUT, 'traces.eval.yaml'),
    `${head(`the ${COPIES} trace scorers, one instance each`, `${COPIES} trace scorers`)}scorers:\n${yamlScorerMap(TRACE_SCORERS)}\n`,
  );
  const copies = CONFIGS[2].scorers.map(
    (name) =>
      `  - type: exact_match\n    name: ${name}\n${Object.entries(EXACT)
        .map(([k, v]) => `    ${k}: ${yamlScalar(v)}`)
        .join('\n')}`,
  );
  writeFileSync(
    join(OUT, 'exact14.eval.yaml'),
    `${head(`exact_match ${COPIES} times (as many evaluations per case as the trace scorers)`, `${COPIES} exact_match`)}scorers:\n${copies.join('\n')}\n`,
  );
  const truth = {
    generator: GENERATOR_HASH,
    seed: SEED,
    cases: N,
    steps: S,
    datasetBytes: bytes,
    stepKinds: kinds,
    counts,
  };
  writeFileSync(join(OUT, 'truth.json'), `${JSON.stringify(truth, null, 2)}\n`);
  return truth;
}

async function runConfig(config, truth) {
  const report = join(OUT, `report-${config.id}.json`);
  const runsDir = join(OUT, `runs-${config.id}`);
  rmSync(report, { force: true });
  rmSync(runsDir, { recursive: true, force: true });
  const m = await measure(
    [
      process.execPath,
      CLI,
      'run',
      join(OUT, config.file),
      '--reporter',
      'json',
      '--out',
      report,
      '--runs-dir',
      runsDir,
    ],
    { cwd: ROOT, scratch: OUT, okCodes: [0, 1] },
  );
  const check = await checkReport(report, config, truth);
  rmSync(runsDir, { recursive: true, force: true });
  return {
    config: config.id,
    wallMs: round(m.wallMs, 1),
    peakRssMb: round(m.peakRssMb, 1),
    cpuS: round(m.cpuS, 2),
    exitCode: m.exitCode,
    ...check,
  };
}

/**
 * Reads the JSON report line by line (the reporter writes one case or result per line), so a report
 * of hundreds of MB is never loaded whole. Counts results per scorer and status, and compares the
 * counts with the ground truth.
 */
async function checkReport(file, config, truth) {
  const statuses = {};
  const caseIds = new Set();
  let results = 0;
  const { durationMs } = await readReport(file, {
    onResult: (r) => {
      results += 1;
      caseIds.add(r.caseId);
      statuses[r.scorer] ??= {};
      statuses[r.scorer][r.status] = (statuses[r.scorer][r.status] ?? 0) + 1;
    },
  });
  const problems = [];
  const expectedResults = N * config.scorers.length;
  if (results !== expectedResults)
    problems.push(`${results} results, expected ${N} x ${config.scorers.length} = ${expectedResults}`);
  if (caseIds.size !== N) problems.push(`${caseIds.size} distinct cases, expected ${N}`);
  if (typeof durationMs !== 'number' || Number.isNaN(durationMs)) problems.push('the report has no durationMs');
  for (const name of config.scorers) {
    const got = statuses[name];
    if (!got) {
      problems.push(`no results for scorer ${name}`);
      continue;
    }
    const want = truth.counts[config.id === 'b' ? name : 'exact_match'];
    const show = (x) =>
      Object.entries(x)
        .sort()
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
    const same = Object.keys({ ...got, ...want }).every((k) => (got[k] ?? 0) === (want[k] ?? 0));
    if (!same) problems.push(`${name}: ${show(got)}; ground truth ${show(want)}`);
  }
  return { results, statuses, inProcessMs: durationMs, problems };
}

// --- Statistics -------------------------------------------------------------------------------------

// --- Main -------------------------------------------------------------------------------------------

if (!existsSync(GNU_TIME)) die(`${GNU_TIME} (GNU time) is missing; install it with: apt-get install -y time`);
if (!existsSync(CLI)) die(`${CLI} is missing; build it first: npm run build`);
mkdirSync(OUT, { recursive: true });

let truth = existsSync(join(OUT, 'truth.json')) ? JSON.parse(readFileSync(join(OUT, 'truth.json'), 'utf8')) : undefined;
const needed = ['traces.jsonl', ...CONFIGS.map((c) => c.file)];
if (
  !truth ||
  truth.generator !== GENERATOR_HASH ||
  truth.cases !== N ||
  truth.steps !== S ||
  needed.some((f) => !existsSync(join(OUT, f)))
) {
  console.log(`generating ${N} cases of ${S} steps into ${relative(ROOT, OUT) || OUT} ...`);
  truth = await generate();
}

const machine = {
  date: new Date().toISOString(),
  nproc: capture('nproc', []),
  cpuModel: os.cpus()[0]?.model ?? 'unknown',
  totalMemGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
  node: process.version,
  platform: `${os.type()} ${os.release()} ${os.arch()}`,
  loadAvgAtStart: os.loadavg().map((x) => Math.round(x * 100) / 100),
  evallens: capture(process.execPath, [CLI, '--version']),
  evallensCommit: `${capture('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'])}${capture('git', ['-C', ROOT, 'status', '--porcelain']).length > 0 ? ' + uncommitted changes' : ''}`,
};

const runs = [];
console.log(
  `trace bench: ${N} cases x ${S} steps (${(truth.datasetBytes / 2 ** 20).toFixed(0)} MB), ${ROUNDS} rounds (+${WARMUP} warm-up): ${CONFIGS.map((c) => `${c.id}) ${c.label}`).join('; ')}`,
);
console.log(
  `machine: ${machine.nproc} cores (${machine.cpuModel}), ${machine.totalMemGiB} GiB, Node ${machine.node}, load ${machine.loadAvgAtStart.join(' ')}`,
);
for (let r = 0; r < WARMUP + ROUNDS; r++) {
  const warm = r < WARMUP;
  const tag = warm ? `warm-up ${r + 1}` : `round ${r - WARMUP + 1}/${ROUNDS}`;
  // Rotate the order from round to round so that no configuration always runs first.
  const order = CONFIGS.map((_, i) => CONFIGS[(i + r) % CONFIGS.length]);
  for (const config of order) {
    const run = { ...(await runConfig(config, truth)), round: warm ? null : r - WARMUP + 1, warmup: warm };
    runs.push(run);
    const flag = run.problems.length ? `  PROBLEM: ${run.problems.join('; ')}` : '';
    console.log(
      `  ${tag}: ${config.id}) ${config.label.padEnd(24)} ${(run.wallMs / 1000).toFixed(2).padStart(6)} s wall, ${(run.inProcessMs / 1000).toFixed(2).padStart(6)} s run, ${run.peakRssMb.toFixed(0).padStart(4)} MB${flag}`,
    );
  }
}
machine.loadAvgAtEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);

// --- Figures ----------------------------------------------------------------------------------------

const measured = runs.filter((r) => !r.warmup);
const summary = {};
for (const c of CONFIGS) {
  const rs = measured.filter((r) => r.config === c.id);
  const evals = N * c.scorers.length;
  const s = {
    evaluations: evals,
    wallMs: stat(rs, 'wallMs'),
    inProcessMs: stat(rs, 'inProcessMs'),
    peakRssMb: stat(rs, 'peakRssMb'),
    cpuS: stat(rs, 'cpuS'),
  };
  s.evalsPerSecWall = evals / (s.wallMs.median / 1000);
  s.evalsPerSecRun = evals / (s.inProcessMs.median / 1000);
  s.usPerEvalWall = (s.wallMs.median * 1000) / evals;
  s.usPerEvalRun = (s.inProcessMs.median * 1000) / evals;
  summary[c.id] = s;
}
const A = summary.a;
const B = summary.b;
const C = summary.c;
// The issue's ratio: time per evaluation of b over time per evaluation of a, from each measure.
const perRound = (key, x, y) =>
  measured
    .filter((r) => r.config === x)
    .map((rx) => {
      const ry = measured.find((q) => q.config === y && q.round === rx.round);
      const ex = N * CONFIGS.find((c) => c.id === x).scorers.length;
      const ey = N * CONFIGS.find((c) => c.id === y).scorers.length;
      return ry ? rx[key] / ex / (ry[key] / ey) : undefined;
    })
    .filter((v) => v !== undefined);
const ratios = {
  bOverA: {
    run: B.usPerEvalRun / A.usPerEvalRun,
    wall: B.usPerEvalWall / A.usPerEvalWall,
    runPerRound: perRound('inProcessMs', 'b', 'a'),
    wallPerRound: perRound('wallMs', 'b', 'a'),
  },
  bOverC: {
    run: B.usPerEvalRun / C.usPerEvalRun,
    wall: B.usPerEvalWall / C.usPerEvalWall,
    runPerRound: perRound('inProcessMs', 'b', 'c'),
    wallPerRound: perRound('wallMs', 'b', 'c'),
  },
};
// Marginal CPU cost of one evaluation, with the per-case work that a, b and c share (reading, parsing
// and validating the case, recording it) taken out: exact_match's from a and c (c adds 13 exact_match evaluations per case
// to a), a trace scorer's from a and b (b has 14 trace-scorer evaluations per case where a has one
// exact_match). CPU time (user + sys, all threads), because the run and wall times of a and c differ by
// less than their noise; even so the exact_match figure is close to the noise floor.
const exactUs = ((C.cpuS.median - A.cpuS.median) * 1e6) / (N * (COPIES - 1));
const traceUs = ((B.cpuS.median - A.cpuS.median) * 1e6) / (N * COPIES) + exactUs / COPIES;
// Whether c's extra CPU over a is more than a's own spread between rounds (else exact_match's figure is noise).
const exactAboveNoise = C.cpuS.median - A.cpuS.median > A.cpuS.max - A.cpuS.min;
ratios.marginalCpu = { exactUs, traceUs, ratio: traceUs / exactUs, exactAboveNoise };
const holds = ratios.bOverA.run <= BOUND && ratios.bOverA.wall <= BOUND;

const problems = runs.flatMap((r) =>
  r.problems.map((p) => `${r.config}) ${r.warmup ? 'warm-up' : `round ${r.round}`}: ${p}`),
);

// --- Report -----------------------------------------------------------------------------------------

const sec = (ms) => (ms / 1000).toFixed(2);
const spread = (st, f) => `${f(st.median)} (${f(st.min)}–${f(st.max)})`;
const fmtInt = (x) => Math.round(x).toLocaleString('en-US');
const us = (x) => x.toFixed(1);
const ratioText = (x) => `${x.toFixed(2)}×`;
const rr = (xs) => `per round ${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}×`;
const lines = [];
lines.push(`#### Trace scorers — ${machine.date.slice(0, 10)}`);
lines.push('');
lines.push(
  `Machine: ${machine.nproc} cores (${machine.cpuModel}), ${machine.totalMemGiB} GiB RAM, ${machine.platform}, Node ${machine.node}. EvalLens ${machine.evallens} (${machine.evallensCommit}). ` +
    `Load average at start ${machine.loadAvgAtStart.join(' / ')}, at end ${machine.loadAvgAtEnd.join(' / ')}.`,
);
lines.push(
  `Data: ${fmtInt(N)} cases, ${S}-step native traces (${(truth.datasetBytes / 2 ** 20).toFixed(0)} MB of JSONL; steps: ${Object.entries(
    truth.stepKinds,
  )
    .map(([k, v]) => `${k} ${fmtInt(v)}`)
    .join(', ')}). ` +
    `${ROUNDS} measured rounds after ${WARMUP} warm-up, configurations rotating; medians with (min–max). Whole processes: wall time around the spawn, peak RSS and CPU from GNU time. ` +
    `"Run" is the report's own \`durationMs\` (reading, scoring and recording the cases; no start-up, config load or final report writing).`,
);
lines.push('');
lines.push(`| | a) exact_match alone | b) ${COPIES} trace scorers | c) exact_match × ${COPIES} |`);
lines.push('|---|---:|---:|---:|');
const cols = [A, B, C];
lines.push(`| evaluations per run | ${cols.map((s) => fmtInt(s.evaluations)).join(' | ')} |`);
lines.push(`| wall time, s | ${cols.map((s) => spread(s.wallMs, sec)).join(' | ')} |`);
lines.push(`| run (durationMs), s | ${cols.map((s) => spread(s.inProcessMs, sec)).join(' | ')} |`);
lines.push(
  `| **evaluations / s, whole process** | ${cols.map((s) => `**${fmtInt(s.evalsPerSecWall)}**`).join(' | ')} |`,
);
lines.push(`| evaluations / s, run | ${cols.map((s) => fmtInt(s.evalsPerSecRun)).join(' | ')} |`);
lines.push(
  `| µs per evaluation, whole process / run | ${cols.map((s) => `${us(s.usPerEvalWall)} / ${us(s.usPerEvalRun)}`).join(' | ')} |`,
);
lines.push(`| **peak RSS, MB** | ${cols.map((s) => `**${spread(s.peakRssMb, (x) => x.toFixed(0))}**`).join(' | ')} |`);
lines.push(`| CPU time (user+sys), s | ${cols.map((s) => spread(s.cpuS, (x) => x.toFixed(2))).join(' | ')} |`);
lines.push('');
lines.push('| per-evaluation cost ratio | from the run (durationMs) | from whole-process wall time | bound |');
lines.push('|---|---:|---:|---:|');
lines.push(
  `| **b ÷ a** (the issue's: a trace-scorer evaluation vs an exact_match evaluation) | **${ratioText(ratios.bOverA.run)}** (${rr(ratios.bOverA.runPerRound)}) | **${ratioText(ratios.bOverA.wall)}** (${rr(ratios.bOverA.wallPerRound)}) | ≤ ${BOUND}× |`,
);
lines.push(
  `| b ÷ c (both ${COPIES} evaluations per case) | ${ratioText(ratios.bOverC.run)} (${rr(ratios.bOverC.runPerRound)}) | ${ratioText(ratios.bOverC.wall)} (${rr(ratios.bOverC.wallPerRound)}) | |`,
);
lines.push(
  `| marginal CPU per evaluation, the shared per-case work taken out (from the CPU times of a, b, c) | trace scorer ${us(ratios.marginalCpu.traceUs)} µs, exact_match ${us(ratios.marginalCpu.exactUs)} µs${ratios.marginalCpu.exactAboveNoise ? `: ${ratioText(ratios.marginalCpu.ratio)}` : " (c − a is within the spread of a between rounds: exact_match's own cost is below the noise, so no ratio)"} | | |`,
);
lines.push('');
lines.push(
  `**3× bound (b ÷ a): ${holds ? 'holds' : 'missed'}** — from the run ${ratioText(ratios.bOverA.run)}, from wall time ${ratioText(ratios.bOverA.wall)}. ` +
    `With as many evaluations per case on both sides (b ÷ c): ${ratioText(ratios.bOverC.run)} from the run, ${ratioText(ratios.bOverC.wall)} from wall time` +
    `${ratios.bOverC.run > BOUND || ratios.bOverC.wall > BOUND ? ' (over 3× by at least one measure)' : ' (both within 3×)'}.`,
);
lines.push('');
lines.push(
  'Verdicts per scorer (every run equal to the ground truth computed by the generator, unless listed under Problems):',
);
lines.push('');
lines.push('| scorer | pass | fail |');
lines.push('|---|---:|---:|');
for (const k of ['exact_match', ...TRACE_KEYS])
  lines.push(`| ${k} | ${fmtInt(truth.counts[k].pass ?? 0)} | ${fmtInt(truth.counts[k].fail ?? 0)} |`);
lines.push('');
lines.push(
  problems.length
    ? `**Problems:**\n${problems.map((p) => `- ${p}`).join('\n')}`
    : `Checks: every run had cases × scorers results covering all ${fmtInt(N)} cases, and every scorer's pass/fail counts equal to the ground truth (no unsupported, error, inconclusive or timeout), in every round.`,
);
lines.push('');
lines.push('<details><summary>Every run</summary>');
lines.push('');
lines.push('| round | config | wall s | run s | CPU s | peak RSS MB |');
lines.push('|---|---|---:|---:|---:|---:|');
for (const r of runs)
  lines.push(
    `| ${r.warmup ? 'warm-up' : r.round} | ${r.config}) ${CONFIGS.find((c) => c.id === r.config).label} | ${sec(r.wallMs)} | ${sec(r.inProcessMs)} | ${r.cpuS.toFixed(2)} | ${r.peakRssMb.toFixed(0)} |`,
  );
lines.push('');
lines.push('</details>');
const markdown = `${lines.join('\n')}\n`;

writeFileSync(join(OUT, 'results.md'), markdown);
writeFileSync(
  join(OUT, 'results.json'),
  `${JSON.stringify(
    {
      machine,
      settings: { cases: N, steps: S, rounds: ROUNDS, warmup: WARMUP, cli: relative(ROOT, CLI) },
      configs: Object.fromEntries(
        CONFIGS.map((c) => [
          c.id,
          {
            file: c.file,
            label: c.label,
            scorers: c.scorers,
            command: `node ${relative(ROOT, CLI)} run ${relative(ROOT, join(OUT, c.file))} --reporter json --out ${relative(ROOT, join(OUT, `report-${c.id}.json`))} --runs-dir ${relative(ROOT, join(OUT, `runs-${c.id}`))}`,
          },
        ]),
      ),
      traceScorerOptions: TRACE_SCORERS,
      summary,
      ratios,
      bound: { factor: BOUND, holds },
      groundTruth: truth,
      problems,
      runs,
    },
    null,
    2,
  )}\n`,
);
console.log('');
console.log(markdown);
console.log(`written: ${relative(ROOT, join(OUT, 'results.md'))}, ${relative(ROOT, join(OUT, 'results.json'))}`);
process.exitCode = problems.length ? 1 : 0;
