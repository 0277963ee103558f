#!/usr/bin/env python3
"""A loopback stand-in for an OpenAI-compatible chat-completions server, for run-report-test.sh's priced experiment.

Binds 127.0.0.1 on a free port, prints the port on its first line, and answers every POST by the request's model:
  mute*   answers in text (no tool call): BFCL's irrelevance tasks pass, its AST tasks fail;
  caller  calls the first offered tool with {} (fails both);
  wiki-vandal  on the wiki benchmark, writes a hostile index (a <script> title, an <img onerror>, a javascript:
          link, a broken link) and one honest page linked from it, then says done: the report must show their
          markup as text and follow only the links between pages and to the documents;
reporting usage by model so that the report's dollars (at the experiment file's prices) differ per candidate.
Never a real endpoint; no key is read or needed.
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

USAGE = {"mute": (400, 30), "mute-pricey": (4000, 300), "caller": (100, 10)}

VANDAL_PAGES = [
    ("/wiki/index.md", "# <script>window.pwned=1</script>Vandal's wiki\n\n"
                       "- [Alpha](alpha.md)\n- [Gone](gone.md)\n- [click me](javascript:window.pwned=2)\n\n"
                       "<img src=x onerror=\"window.pwned=3\">\n"),
    ("/wiki/alpha.md", "# Alpha\n\nFounded in 1988 ([charter](/docs/charter.md)). Back to [the index](index.md).\n"),
]


def vandal(body):
    """The next step of wiki-vandal: its plan is a function of how many turns it has taken."""
    step = sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")
    if step >= len(VANDAL_PAGES):
        return {"role": "assistant", "content": "done"}
    path, content = VANDAL_PAGES[step]
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": f"call_{step}", "type": "function",
         "function": {"name": "write_file", "arguments": json.dumps({"path": path, "content": content})}}]}


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
        model = body.get("model", "")
        prompt, completion = USAGE.get(model, (1, 1))
        message = {"role": "assistant", "content": "I cannot help with that."}
        if model == "wiki-vandal":
            message = vandal(body)
        elif model == "caller" and body.get("tools"):
            name = body["tools"][0]["function"]["name"]
            message = {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": name, "arguments": "{}"}}]}
        reply = json.dumps({
            "id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": model,
            "choices": [{"index": 0, "message": message, "logprobs": None,
                         "finish_reason": "tool_calls" if "tool_calls" in message else "stop"}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                      "total_tokens": prompt + completion},
        }).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
sys.stdout.close()
server.serve_forever()
