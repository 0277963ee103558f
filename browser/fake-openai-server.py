#!/usr/bin/env python3
"""A loopback stand-in for an OpenAI-compatible chat-completions server, for run-report-test.sh's priced experiment.

Binds 127.0.0.1 on a free port, prints the port on its first line, and answers every POST by the request's model:
  mute*   answers in text (no tool call): BFCL's irrelevance tasks pass, its AST tasks fail;
  caller  calls the first offered tool with {} (fails both);
reporting usage by model so that the report's dollars (at the experiment file's prices) differ per candidate.
Never a real endpoint; no key is read or needed.
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

USAGE = {"mute": (400, 30), "mute-pricey": (4000, 300), "caller": (100, 10)}


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
        model = body.get("model", "")
        prompt, completion = USAGE.get(model, (1, 1))
        message = {"role": "assistant", "content": "I cannot help with that."}
        if model == "caller" and body.get("tools"):
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
