"""A python_scorer script (EvalBench's contract).

stdin:  EvalBench's evaluation context, one JSON object (nl_prompt, generated_query, golden_query,
        ..., config, and EvalLens's `case`); see docs/scorers.md#python_scorer.
stdout: {"score": 0..100, "reason": "..."}; only 100 passes, unless the config sets a threshold.

Under `uv run --isolated` a script may declare PEP 723 dependencies; this one needs none, so it
runs the same under plain python3.
"""
import json
import sys

context = json.load(sys.stdin)
case = context["case"]
output = str(case.get("output") or "").lower()
expected = str(case.get("expected") or "").lower()
keywords = [w.strip(".,;!?") for w in expected.split() if len(w) > 3]
hits = sum(1 for w in keywords if w in output)
score = 100.0 if not keywords else round(100.0 * hits / len(keywords), 1)
print(json.dumps({"score": score, "reason": f"{hits}/{len(keywords)} expected keywords found"}))
