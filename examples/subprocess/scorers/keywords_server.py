"""The same keyword scorer as keywords.py, as a persistent process (subprocess, mode: persistent).

One request per line on stdin:   {"id": 7, "expected": ..., "input": "...", "output": "..."}
One response per line on stdout: {"id": 7, "score": 0..1, "passed": bool, "reason": "..."}

Expensive set-up (imports, models, indexes) happens once, before the loop. Logs go to stderr:
stdout carries responses only. The loop ends when stdin closes, which is how the run says it is
over. Try it alone:
  printf '%s\n' '{"id":1,"expected":"refunds within 30 days","input":"q","output":"Refunds within 30 days"}' | python3 keywords_server.py
"""
import json
import sys

from keywords import score

print("keywords_server: ready", file=sys.stderr)
for line in sys.stdin:
    if not line.strip():
        continue
    request = json.loads(line)
    try:
        answer = score(request)
    except Exception as error:  # One bad case must not end the process: answer with a failing score.
        answer = {"score": 0.0, "reason": f"scorer failed: {error}"}
    answer["id"] = request["id"]
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
