#!/usr/bin/env python3
"""Measures the Brokkr kernel's start-up: from launching the kernel process to the first execute_reply
(of "1 + 1"). Not a test: prints one line per run and the median. Needs the kernelspec on JUPYTER_PATH."""
import statistics
import sys
import time

from jupyter_client import KernelManager


def once():
    km = KernelManager(kernel_name="brokkr")
    t0 = time.monotonic()
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    reply = kc.execute_interactive("1 + 1", timeout=120, output_hook=lambda m: None)
    elapsed = time.monotonic() - t0
    assert reply["content"]["status"] == "ok", reply["content"]
    kc.stop_channels()
    km.shutdown_kernel(now=False)
    return elapsed


if __name__ == "__main__":
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    times = []
    for i in range(runs):
        t = once()
        times.append(t)
        print(f"run {i + 1}: {t:.2f} s to the first execute_reply", flush=True)
    print(f"median {statistics.median(times):.2f} s over {runs} runs")
