// The keyword scorer of keywords.py as a persistent Node process (subprocess, mode: persistent).
//
// One request per line on stdin:   {"id": 7, "expected": ..., "input": "...", "output": "..."}
// One response per line on stdout: {"id": 7, "score": 0..1, "passed": bool, "reason": "..."}
//
// Logs go to stderr: stdout carries responses only. The process ends when stdin closes.
// Try it alone:
//   printf '%s\n' '{"id":1,"expected":"refunds within 30 days","input":"q","output":"Refunds within 30 days"}' | node keywords_server.mjs
import readline from 'node:readline';

function score(testCase) {
  const output = String(testCase.output ?? '').toLowerCase();
  const expected = String(testCase.expected ?? '').toLowerCase();
  const keywords = expected
    .split(/\s+/)
    .filter((w) => w.length > 3)
    .map((w) => w.replace(/[.,;!?]+$/, ''));
  if (keywords.length === 0) return { score: 1, reason: 'no expected keywords to check' };
  const hits = keywords.filter((w) => output.includes(w)).length;
  const share = hits / keywords.length;
  return {
    score: Math.round(share * 1000) / 1000,
    passed: share >= 0.5,
    reason: `${hits}/${keywords.length} expected keywords found in the output`,
  };
}

process.stderr.write('keywords_server.js: ready\n');
const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim() === '') return;
  const request = JSON.parse(line);
  let answer;
  try {
    answer = score(request);
  } catch (error) {
    // One bad case must not end the process: answer with a failing score.
    answer = { score: 0, reason: `scorer failed: ${error.message}` };
  }
  process.stdout.write(JSON.stringify({ id: request.id, ...answer }) + '\n');
});
// readline ends at EOF and the process exits once nothing else is pending.
