#!/usr/bin/env python3
"""Drives the Brokkr kernel over the Jupyter protocol with jupyter_client, as a front end would.

The kernelspec "brokkr" must be findable (JUPYTER_PATH); run-notebooks.sh installs it into a temporary
prefix and calls this script. Prints PASS/FAIL per check and a last line "N passed, M failed"; exits 1 on
any failure.
"""
import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import time
import traceback

import zmq
from jupyter_client import KernelManager
from jupyter_client.session import Session

RESULTS = []
TIMEOUT = 60


def check(name):
    def wrap(fn):
        def run(*a):
            try:
                fn(*a)
                RESULTS.append((name, None))
                print(f"PASS {name}", flush=True)
            except Exception as e:  # a failed check is reported, the others still run
                RESULTS.append((name, e))
                print(f"FAIL {name}: {e}", flush=True)
                traceback.print_exc(limit=3)
        run()
        return run
    return wrap


def execute(kc, code, timeout=TIMEOUT):
    """Runs code; returns (reply content, list of iopub messages of this request)."""
    msg_id = kc.execute(code)
    reply = kc.get_shell_msg(timeout=timeout)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = kc.get_shell_msg(timeout=timeout)
    outputs = []
    while True:
        m = kc.get_iopub_msg(timeout=timeout)
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            break
        outputs.append(m)
    return reply["content"], outputs


def result_text(outputs):
    for m in outputs:
        if m["msg_type"] == "execute_result":
            return m["content"]["data"].get("text/plain")
    return None


def kernel_pid(km):
    return km.provisioner.process.pid


def alive(pid):
    """Whether a process runs (a zombie, dead but not yet reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_gone(pid, seconds):
    end = time.monotonic() + seconds
    while alive(pid) and time.monotonic() < end:
        time.sleep(0.2)
    return not alive(pid)


# A client that starts a kernel, prints its pid and waits: killed, it leaves the kernel an orphan.
ORPHANING_CLIENT = """
import sys, time
from jupyter_client import KernelManager
km = KernelManager(kernel_name="brokkr")
km.start_kernel()
kc = km.client()
kc.start_channels()
kc.wait_for_ready(timeout=120)
print(km.provisioner.process.pid, flush=True)
time.sleep(600)
"""


def request(kc, send, timeout=TIMEOUT):
    msg_id = send()
    reply = kc.get_shell_msg(timeout=timeout)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = kc.get_shell_msg(timeout=timeout)
    return reply["content"]


def main():
    km = KernelManager(kernel_name="brokkr")
    t0 = time.monotonic()
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=TIMEOUT)
    content, outs = execute(kc, "1 + 1")
    startup = time.monotonic() - t0
    print(f"startup to first execute_reply: {startup:.2f} s", flush=True)

    @check("first execute_reply is ok and shows 2")
    def _():
        assert content["status"] == "ok", content
        assert result_text(outs) == "2", outs

    @check("kernel_info: protocol 5.3+, Java, implementation brokkr")
    def _():
        c = request(kc, kc.kernel_info)
        major, minor = (int(x) for x in c["protocol_version"].split(".")[:2])
        assert (major, minor) >= (5, 3), c["protocol_version"]
        assert c["language_info"]["name"] == "java", c
        assert c["implementation"] == "brokkr", c

    @check("execute: stdout stream and execute_result")
    def _():
        c, o = execute(kc, 'System.out.println("hello from java");\n40 + 2')
        assert c["status"] == "ok", c
        streams = "".join(m["content"]["text"] for m in o if m["msg_type"] == "stream" and m["content"]["name"] == "stdout")
        assert "hello from java" in streams, o
        assert result_text(o) == "42", o

    @check("display_data then update_display_data for the same display id")
    def _():
        c, o = execute(kc, 'var shown = display("first");\nupdate(shown, "second");')
        assert c["status"] == "ok", c
        shown = [m for m in o if m["msg_type"] == "display_data"]
        updated = [m for m in o if m["msg_type"] == "update_display_data"]
        assert shown and updated, [m["msg_type"] for m in o]
        did = shown[0]["content"]["transient"]["display_id"]
        assert updated[0]["content"]["transient"]["display_id"] == did
        assert "second" in updated[0]["content"]["data"]["text/plain"]

    @check("runtime error: Java exception name, user frames only")
    def _():
        c, o = execute(kc, "int zero = 0;\nint q = 1 / zero;")
        assert c["status"] == "error", c
        assert c["ename"] == "java.lang.ArithmeticException", c
        err = [m for m in o if m["msg_type"] == "error"][0]["content"]
        tb = "\n".join(err["traceback"])
        assert "/ by zero" in tb and "at cell" in tb, tb
        assert "jdk.jshell" not in tb and "brokkr.kernel" not in tb and "org.dflib" not in tb, tb

    @check("compile error names the line")
    def _():
        c, o = execute(kc, 'int a = 1;\nString s = a;')
        assert c["status"] == "error" and c["ename"] == "CompilationError", c
        assert "line 2" in "\n".join(c["traceback"]), c["traceback"]

    @check("magic result bound to a Java variable is usable in the next cell")
    def _():
        c, o = execute(kc, "var d = %domain load loop")
        assert c["status"] == "ok", c
        c, o = execute(kc, "d.tasksPerSplit().get(\"standard\")")
        assert c["status"] == "ok" and result_text(o) == "5", (c, o)

    @check("magic with wrong arguments: usage message, no stack trace")
    def _():
        c, o = execute(kc, "%tasks --nope")
        assert c["status"] == "error", c
        tb = "\n".join(c["traceback"])
        assert "usage: %tasks" in tb and "\tat " not in tb, tb

    @check("magic output is HTML")
    def _():
        c, o = execute(kc, "%tasks")
        data = [m for m in o if m["msg_type"] == "execute_result"][0]["content"]["data"]
        assert "<table" in data["text/html"] and "text/plain" in data, data.keys()

    @check("complete: JShell suggestions and magic names")
    def _():
        c = request(kc, lambda: kc.complete("Strin", 5))
        assert c["status"] == "ok" and "String" in c["matches"], c
        assert c["cursor_start"] == 0 and c["cursor_end"] == 5, c
        c = request(kc, lambda: kc.complete("%ta", 3))
        assert {"task", "tasks"} <= set(c["matches"]), c
        c = request(kc, lambda: kc.complete("%domain load par", 16))
        assert c["matches"] == ["parallel"] and c["cursor_start"] == 13, c
        c = request(kc, lambda: kc.complete("d.tas", 5))
        assert "tasks()" in c["matches"] or "tasks" in c["matches"] or any(m.startswith("tasks") for m in c["matches"]), c

    @check("inspect: documentation of the symbol at the cursor")
    def _():
        c = request(kc, lambda: kc.inspect("Math.max(1, 2)", 6))
        assert c["status"] == "ok" and c["found"], c
        assert "max(" in c["data"]["text/plain"], c
        c = request(kc, lambda: kc.inspect("%run --task 1", 2))
        assert c["found"] and "%run --task ID --candidate C|PROVIDER:MODEL" in c["data"]["text/plain"], c

    @check("inspect at the end of an identifier: Javadoc rendered as Markdown and text, no raw tags")
    def _():
        c = request(kc, lambda: kc.inspect("Math.max", 8))
        assert c["status"] == "ok" and c["found"], c
        md, text = c["data"]["text/markdown"], c["data"]["text/plain"]
        assert "`int`" in md and "**Parameters:**" in md, md
        assert "Returns the greater of two int values." in text, text
        for raw in ("{@code", "{@link", "<p>", "@param"):
            assert raw not in md and raw not in text, (raw, md)

    @check("errors and values name cell classes as written: no REPL.$JShell$, $Cancel$, empty location")
    def _():
        execute(kc, "class Oops extends RuntimeException {}\nint spin(int n) { return spin(n + 1); }")
        texts = []
        for code in ("throw new Oops();", "spin(0)", "undefinedName + 1"):
            c, o = execute(kc, code)
            assert c["status"] == "error", c
            texts.append(c["ename"] + "\n" + "\n".join(c["traceback"]))
        assert texts[0].startswith("Oops"), texts[0]
        assert "more times" in texts[1] and len(texts[1].splitlines()) < 12, texts[1]
        for t in texts:
            assert "REPL." not in t and "$Cancel$" not in t and "location: class\n" not in t + "\n", t
        c, o = execute(kc, "record Pair(int a, int[] b) {}\nnew Pair(1, new int[]{2, 3})")
        assert result_text(o) == "Pair[a=1, b=[2, 3]]", o
        c, o = execute(kc, "new int[]{1, 2, 3}")
        assert result_text(o) == "[1, 2, 3]", o

    @check("display(x) shows x once and echoes no display id")
    def _():
        c, o = execute(kc, 'display("shown once")')
        assert c["status"] == "ok", c
        assert [m["msg_type"] for m in o if m["msg_type"] in ("display_data", "execute_result")] == ["display_data"], o

    @check("%time prints the wall time and keeps the value; %vars lists variables")
    def _():
        c, o = execute(kc, "%time 6 * 7")
        streams = "".join(m["content"]["text"] for m in o if m["msg_type"] == "stream")
        assert c["status"] == "ok" and result_text(o) == "42" and "Wall time: " in streams, o
        c, o = execute(kc, "int answer = 42;\n%vars")
        data = [m for m in o if m["msg_type"] == "execute_result"][0]["content"]["data"]
        assert "answer" in data["text/plain"] and "<table" in data["text/html"], data

    @check("is_complete: complete, incomplete with indent, invalid")
    def _():
        assert request(kc, lambda: kc.is_complete("int x = 1;"))["status"] == "complete"
        c = request(kc, lambda: kc.is_complete("for (int i = 0; i < 3; i++) {"))
        assert c["status"] == "incomplete" and c["indent"] == "    ", c
        assert request(kc, lambda: kc.is_complete("%tasks"))["status"] == "complete"

    @check("history: the session's inputs")
    def _():
        c = request(kc, lambda: kc.history(hist_access_type="tail", n=50))
        inputs = [h[2] for h in c["history"]]
        assert "var d = %domain load loop" in inputs, inputs

    @check("interrupt ends an endless loop and the kernel survives with its variables")
    def _():
        execute(kc, "int kept = 41;")
        msg_id = kc.execute("while (true) { }")
        time.sleep(1.5)
        km.interrupt_kernel()
        reply = kc.get_shell_msg(timeout=20)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = kc.get_shell_msg(timeout=20)
        assert reply["content"]["status"] == "error" and reply["content"]["ename"] == "Interrupted", reply["content"]
        c, o = execute(kc, "kept + 1")
        assert result_text(o) == "42", o

    @check("interrupting %%experiment cancels the run, shows Interrupted, and the next run resumes")
    def _():
        exp_dir = os.path.join(tempfile.mkdtemp(prefix="brokkr-interrupt-"), "exp")
        cell = (f"%%experiment --dir {exp_dir} --name interrupt-check\n"
                "domain: tau2-retail\nsplit: test\ncandidates: [{id: gold, provider: scripted, model: gold}]\n"
                "repetitions: 25\nparallelism: 4\n")
        msg_id = kc.execute(cell)
        shown = []

        def cell_outputs(until):
            """This cell's progress texts as they come, until `until(text)` or the cell is idle."""
            while True:
                m = kc.get_iopub_msg(timeout=TIMEOUT)
                if m["parent_header"].get("msg_id") != msg_id:
                    continue
                if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
                    return
                if m["msg_type"] in ("display_data", "update_display_data"):
                    shown.append(m["content"]["data"]["text/plain"])
                    if until(shown[-1]):
                        return

        def done_of(text):
            return int(text.split(": ", 1)[1].split("/")[0])

        # A person interrupts a run they see going: once its display counts a finished cell (a fixed sleep
        # interrupted before the first cell finished on a loaded CI machine, leaving nothing to resume).
        cell_outputs(lambda t: "cells done" in t and done_of(t) > 0)
        km.interrupt_kernel()
        reply = kc.get_shell_msg(timeout=60)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = kc.get_shell_msg(timeout=60)
        assert reply["content"]["status"] == "error" and reply["content"]["ename"] == "Interrupted", reply["content"]
        cell_outputs(lambda t: False)
        assert shown and "Interrupted: the " in shown[-1], shown[-3:]
        assert not any("ZMQException" in t for t in shown), shown
        kept = done_of(shown[-1])
        c, o = execute(kc, cell, timeout=600)      # the lock is free and the finished cells are kept
        assert c["status"] == "ok", c
        text = result_text(o)
        done = int(text.split(" cells: ")[1].split(" already done")[0])
        # the interrupted display told the truth: exactly the cells it said were kept are resumed
        assert 0 < done == kept < 1000 and "0 without a verdict" in text, (kept, text)

    @check("System.exit in a cell: an error, the same kernel process, its variables intact")
    def _():
        pid = kernel_pid(km)
        for code, call in (("System.exit(3);", "System.exit(3)"), ("Runtime.getRuntime().halt(4);", "Runtime.halt(4)")):
            c, o = execute(kc, code)
            assert c["status"] == "error" and c["ename"] == "brokkr.kernel.ExitRefused", c
            assert c["evalue"].startswith(call + " refused"), c["evalue"]
        c, o = execute(kc, "kept + 1")
        assert result_text(o) == "42", o
        assert kernel_pid(km) == pid and alive(pid)

    @check("a thread printing after its cell ended: the text reaches that cell")
    def _():
        msg_id = kc.execute('new Thread(() -> { try { Thread.sleep(500); } catch (InterruptedException e) { }'
                            ' System.out.println("late hello"); }).start();')
        text, end = "", time.monotonic() + TIMEOUT
        while "late hello" not in text and time.monotonic() < end:
            m = kc.get_iopub_msg(timeout=TIMEOUT)
            if m["msg_type"] == "stream" and m["parent_header"].get("msg_id") == msg_id:
                text += m["content"]["text"]
        assert text == "late hello\n", text

    def raw_shell_send(key, code):
        """Sends an execute_request signed with `key` on a fresh socket; returns the reply or None."""
        ctx = zmq.Context.instance()
        sock = ctx.socket(zmq.DEALER)
        sock.linger = 0
        sock.connect(f"{km.transport}://{km.ip}:{km.shell_port}")
        s = Session(key=key, signature_scheme="hmac-sha256")
        s.send(sock, "execute_request", content={"code": code, "silent": False, "store_history": False,
                                                  "user_expressions": {}, "allow_stdin": False, "stop_on_error": True})
        got = sock.poll(3000)
        reply = sock.recv_multipart() if got else None
        sock.close()
        return reply

    @check("wrongly signed and unsigned messages are rejected and never run")
    def _():
        assert raw_shell_send(b"not-the-key", "int pwnedA = 1;") is None, "a reply to a wrongly signed message"
        assert raw_shell_send(b"", "int pwnedB = 1;") is None, "a reply to an unsigned message"
        good = Session(key=km.session.key, signature_scheme="hmac-sha256")
        assert good.key == km.session.key
        c, o = execute(kc, "pwnedA")
        assert c["status"] == "error" and c["ename"] == "CompilationError", c
        c, o = execute(kc, "pwnedB")
        assert c["status"] == "error", c
        c, o = execute(kc, "3 * 3")
        assert result_text(o) == "9", o

    @check("a correctly signed message replayed: run once, the copy dropped")
    def _():
        execute(kc, "int replays = 0;")
        ctx = zmq.Context.instance()
        sock = ctx.socket(zmq.DEALER)
        sock.linger = 0
        sock.connect(f"{km.transport}://{km.ip}:{km.shell_port}")
        s = Session(key=km.session.key, signature_scheme="hmac-sha256")
        msg = s.msg("execute_request", content={"code": "replays++;", "silent": False, "store_history": False,
                                                "user_expressions": {}, "allow_stdin": False, "stop_on_error": True})
        frames = s.serialize(msg)
        sock.send_multipart(frames)
        assert sock.poll(TIMEOUT * 1000), "no reply to the original"
        sock.recv_multipart()
        sock.send_multipart(frames)
        assert not sock.poll(3000), "a reply to the replayed copy"
        sock.close()
        c, o = execute(kc, "replays")
        assert result_text(o) == "1", o

    @check("sockets bound to the connection file's address only")
    def _():
        ports = {km.shell_port, km.iopub_port, km.stdin_port, km.control_port, km.hb_port}
        seen = {}
        for f in ("/proc/net/tcp", "/proc/net/tcp6"):
            if not os.path.exists(f):
                continue
            for line in open(f).read().splitlines()[1:]:
                parts = line.split()
                local, state = parts[1], parts[3]
                if state != "0A":
                    continue
                addr, port = local.split(":")
                port = int(port, 16)
                if port in ports:
                    seen.setdefault(port, set()).add(addr)
        assert set(seen) == ports, (seen, ports)
        for port, addrs in seen.items():
            # 127.0.0.1, as an IPv4 socket or Java's dual-stack socket bound to ::ffff:127.0.0.1
            assert addrs <= {"0100007F", "0000000000000000FFFF00000100007F"}, (port, addrs)

    @check("an exit the guard cannot see: a notice in the cell, the kernel ends, a restart serves again")
    def _():
        pid = kernel_pid(km)
        msg_id = kc.execute('System.class.getMethod("exit", int.class).invoke(null, 5);')
        text, end = "", time.monotonic() + TIMEOUT
        while "Kernel exiting" not in text and time.monotonic() < end:
            try:
                m = kc.get_iopub_msg(timeout=5)
            except queue.Empty:
                continue
            if m["msg_type"] == "stream" and m["parent_header"].get("msg_id") == msg_id:
                text += m["content"]["text"]
        assert "Kernel exiting" in text and "front end restarts the kernel" in text, text
        assert wait_gone(pid, 30), "the kernel still runs"
        km.restart_kernel(now=True)
        kc.wait_for_ready(timeout=TIMEOUT)
        c, o = execute(kc, "6 * 7")
        assert result_text(o) == "42", o

    @check("restart: a new session without the old variables")
    def _():
        km.restart_kernel(now=False)
        kc.wait_for_ready(timeout=TIMEOUT)
        c, o = execute(kc, "kept")
        assert c["status"] == "error", c
        c, o = execute(kc, "2 + 5")
        assert result_text(o) == "7", o

    @check("shutdown_request on control: the kernel process exits by itself")
    def _():
        pid = kernel_pid(km)
        kc.shutdown()
        assert wait_gone(pid, 30), "the kernel still runs 30 s after shutdown_request"
        kc.stop_channels()
        km.shutdown_kernel(now=False)
        assert not km.is_alive()

    @check("the kernel exits when its client process dies (no orphan)")
    def _():
        client = subprocess.Popen([sys.executable, "-c", ORPHANING_CLIENT], stdout=subprocess.PIPE, text=True)
        pid = int(client.stdout.readline())
        try:
            os.kill(client.pid, signal.SIGKILL)
            client.wait()
            assert wait_gone(pid, 30), f"kernel {pid} outlived its client by 30 s"
        finally:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)

    failed = [n for n, e in RESULTS if e is not None]
    if km.is_alive():
        km.shutdown_kernel(now=True)
    print(f"{len(RESULTS) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
