"""A scripted model for the conversation harness's model path: an endpoint
speaking the OpenAI Chat Completions wire format on loopback, playing an
*overconfident* model that makes things up — the failure mode the platform
must contain. It reads the tasks ADAS sends (intent detection, the plan and
its next steps, the finalization verdict, polishing) and answers:

- intent: the intent whose examples share most words with the message, at
  confidence 0.95 (out of domain when none shares a word);
- plan: the intent's workflow steps with every required input filled — from
  the message when a word fits, otherwise *invented* (`X-1`, `100`);
- next step: done; verdict: passed; polish: the draft as it is.

Run by `harness.py --model scripted`; prints `listening on HOST:PORT`.
"""

import json
import re
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STOP = {"a", "an", "the", "i", "my", "me", "to", "of", "for", "on", "in", "is", "it", "and", "please", "what", "where", "can", "you"}


def fenced(text, name):
    match = re.search(r'<data name="%s">(".*?")</data>' % re.escape(name), text, re.S)
    return json.loads(match.group(1)) if match else None


def words(text):
    return {w for w in re.findall(r"[a-z0-9']+", (text or "").lower()) if w not in STOP}


def intent(user):
    data = json.loads(fenced(user, "skill_intents") or "{}")
    message = fenced(user, "user_message") or ""
    said = words(message)
    scored = sorted(((len(said & words(" ".join(i.get("examples") or []) + " " + (i.get("description") or ""))), i["id"])
                     for i in data.get("intents", [])), reverse=True)
    if not scored or scored[0][0] == 0:
        return {"explanation": "nothing fits", "intent": "out_of_domain", "confidence": 0.9,
                "runner_up": "out_of_domain", "runner_up_confidence": 0.0, "entities": []}
    runner_up = scored[1][1] if len(scored) > 1 else scored[0][1]
    return {"explanation": "closest examples", "intent": scored[0][1], "confidence": 0.95,
            "runner_up": runner_up, "runner_up_confidence": 0.1, "entities": []}


def value_for(spec, message):
    tokens = re.findall(r"[\w@.$-]+", message)
    if spec.get("type") in ("number", "integer"):
        for token in tokens:
            try:
                return float(token.strip("$"))
            except ValueError:
                pass
        return 100  # invented
    if spec.get("enum"):
        for token in tokens:
            if token.lower() in [str(v).lower() for v in spec["enum"]]:
                return token.lower()
        return spec["enum"][-1]  # invented
    for token in tokens:
        if any(c.isdigit() for c in token) and "-" in token:
            return token
    return "X-1"  # invented


def plan(user):
    if "returned" in user or fenced(user, "finalization_feedback") is not None:
        return {"explanation": "served", "done": True, "program": ""}
    tools = {t["name"]: t for t in json.loads(fenced(user, "tools") or "[]")}
    workflows = json.loads(fenced(user, "workflows") or "[]")
    message = fenced(user, "user_message") or ""
    steps = workflows[0]["steps"] if workflows else []
    calls = []
    for step in steps:
        tool = tools.get(step)
        if not tool:
            continue
        args = ", ".join(f"{i['name']}={json.dumps(value_for(i, message))}"
                         for i in tool["inputs"] if i.get("required"))
        calls.append(f"{step}({args})")
    return {"explanation": "the workflow", "done": False, "program": ", ".join(calls)}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
        user = "\n".join(m["content"] for m in body.get("messages", []) if m.get("role") != "system")
        task = ((body.get("response_format") or {}).get("json_schema") or {}).get("name")
        if task == "intent_detection":
            content = json.dumps(intent(user))
        elif task == "plan":
            content = json.dumps(plan(user))
        elif task == "finalization_verdict":
            content = json.dumps({"passed": True, "score": 1.0, "reasons": [], "missing_fields": [], "suggested_action": "NONE"})
        elif task:
            content = json.dumps({"explanation": "", "value": "", "answer": "", "information": "", "program": ""})
        else:
            content = fenced(user, "response_to_format") or ""
        reply = {"id": "chatcmpl-scripted", "object": "chat.completion", "created": 0, "model": body.get("model"),
                 "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
                 "usage": {"prompt_tokens": len(json.dumps(body)) // 4, "completion_tokens": len(content) // 4,
                           "total_tokens": 0}}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"listening on 127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()
