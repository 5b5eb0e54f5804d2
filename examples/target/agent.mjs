// A tiny stand-in for an agent under test: it reads one case as JSON on stdin and prints its answer.
// It answers questions about a made-up refund policy by rule, so the example runs offline, with no
// packages. A real target would call a model here.
import { readFileSync } from 'node:fs';

const evalCase = JSON.parse(readFileSync(0, 'utf8'));
const question = String(evalCase.input ?? '').toLowerCase();

function answer() {
  if (question.includes('how many days')) return { answer: '30 days', policy: 'refunds' };
  if (question.includes('shipping'))
    return { answer: 'Shipping is refunded only for damaged items.', policy: 'shipping' };
  if (question.includes('gift card')) return { answer: 'Gift cards cannot be refunded.', policy: 'gift-cards' };
  return { answer: 'I do not know.', policy: 'unknown' };
}

const started = Date.now();
const result = answer();
// The trace says what the agent did; EvalLens adds the call's wall time as `latency_ms`.
process.stdout.write(
  `${JSON.stringify({ ...result, trace: { steps: [{ type: 'tool_call', name: 'policy__lookup', arguments: { topic: result.policy } }], turns: [{ model_latency_ms: Date.now() - started }] } })}\n`,
);
