"""A subprocess scorer, one process per case (EvalCore's protocol).

stdin:  one JSON object, {"expected": ..., "input": "...", "output": "..."}
stdout: one JSON object, {"score": 0..1, "passed": bool, "reason": "..."}

Scores the share of the expected answer's keywords (words of 4+ letters) found in the output.
Try it alone:
  echo '{"input":"q","output":"Refunds within 30 days","expected":"refunds within 30 days"}' | python3 keywords.py
"""
import json
import sys


def score(case):
    output = str(case.get("output") or "").lower()
    expected = str(case.get("expected") or "").lower()
    keywords = [w.strip(".,;!?") for w in expected.split() if len(w) > 3]
    if not keywords:
        return {"score": 1.0, "reason": "no expected keywords to check"}
    hits = sum(1 for w in keywords if w in output)
    share = hits / len(keywords)
    return {"score": round(share, 3), "passed": share >= 0.5, "reason": f"{hits}/{len(keywords)} expected keywords found in the output"}


if __name__ == "__main__":
    print(json.dumps(score(json.load(sys.stdin))))
