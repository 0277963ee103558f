#!/usr/bin/env python3
"""Checks what a reader of the EXPORTED notebooks sees: every chart is a picture, never an empty box.

    check_html_charts.py NOTEBOOKS_DIR      (reads NOTEBOOKS_DIR/out/*.ipynb and NOTEBOOKS_DIR/out/html/*.html)

The executed .ipynb can hold a perfect chart that the HTML export still shows empty: nbconvert's HTML
exporter prefers image/svg+xml over image/png, and Debian's nbconvert 6.5 sanitizes untrusted outputs
(bleach's allow-list), which strips every element inside an SVG. So this reads the HTML itself:

  - every output area showing an SVG holds drawing elements (path, rect, text, ...), not an empty <svg>;
  - every <img> carries a decodable data: PNG (or JPEG) of real size;
  - each notebook's HTML shows at least as many chart pictures as its .ipynb has outputs carrying an image.

The last line is "N passed, M failed", as run-notebooks.sh tallies it.
"""
import base64
import glob
import json
import re
import os
import sys
from html.parser import HTMLParser

DRAWING = {"path", "rect", "line", "polyline", "polygon", "circle", "ellipse", "text", "image", "use"}

passed = 0
failed = 0


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print(f"PASS {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}".rstrip())


class Outputs(HTMLParser):
    """Every output area of an nbconvert HTML page: the SVGs it shows (with their drawing elements) and its images."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.svgs = []  # number of drawing elements in each top-level <svg> inside an output area
        self.images = []  # src of each <img> inside an output area
        self.stack = []  # (tag, is_output_area)
        self.svg_depth = 0

    def in_output(self):
        return any(out for _, out in self.stack)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = a.get("class") or ""
        self.stack.append((tag, "jp-OutputArea-output" in cls or "output_subarea" in cls))
        if not self.in_output():
            return
        if tag == "svg":
            if self.svg_depth == 0:
                self.svgs.append(0)
            self.svg_depth += 1
        elif self.svg_depth and tag in DRAWING:
            self.svgs[-1] += 1
        elif tag == "img":
            self.images.append(a.get("src") or "")

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_endtag(self, tag):
        # HTML is forgiving: close up to the matching open tag, if there is one
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                for t, _ in self.stack[i:]:
                    if t == "svg" and self.svg_depth:
                        self.svg_depth -= 1
                del self.stack[i:]
                return


def picture_bytes(src):
    """The decoded bytes of a data: PNG/JPEG source, else b''."""
    for prefix in ("data:image/png;base64,", "data:image/jpeg;base64,"):
        if src.startswith(prefix):
            try:
                return base64.b64decode(src[len(prefix):], validate=False)
            except ValueError:
                return b""
    return b""


def image_outputs(nb):
    """Outputs of the executed notebook that carry a picture (the charts a reader expects to see)."""
    n = 0
    for cell in nb.get("cells", []):
        for o in cell.get("outputs", []) or []:
            data = o.get("data", {})
            if "image/png" in data or "image/svg+xml" in data:
                n += 1
    return n


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = os.path.join(root, "out")
    sources = sorted(glob.glob(os.path.join(root, "*.ipynb")))
    check("exported notebooks to check", len(sources) > 0, root)
    for source in sources:
        name = os.path.splitext(os.path.basename(source))[0]
        executed = os.path.join(out, name + ".ipynb")
        page = os.path.join(out, "html", name + ".html")
        if not (os.path.isfile(executed) and os.path.isfile(page)):
            check(f"{name}: executed and exported", False, "(missing " + (page if os.path.isfile(executed) else executed) + ")")
            continue
        with open(executed, encoding="utf-8") as f:
            expected = image_outputs(json.load(f))
        p = Outputs()
        with open(page, encoding="utf-8") as f:
            p.feed(f.read())
        empty = [i for i, n in enumerate(p.svgs) if n == 0]
        check(f"{name}: no empty SVG in the exported HTML", not empty,
              f"({len(empty)} of {len(p.svgs)} SVG outputs have no drawing element: the sanitizer stripped them)")
        pictures = [src for src in p.images if len(picture_bytes(src)) > 1000]
        bad = [src[:60] for src in p.images if len(picture_bytes(src)) <= 1000]
        check(f"{name}: every <img> in the exported HTML is an inline picture", not bad, str(bad))
        shown = len(pictures) + sum(1 for n in p.svgs if n > 0)
        check(f"{name}: every chart of the notebook shows in the exported HTML ({expected} charts)",
              shown >= expected, f"(the .ipynb has {expected} image outputs, the HTML shows {shown} pictures)")
    # what the exported typed-results page says: the Fisher comparison of the two REPL guidances, with the interval
    page = os.path.join(out, "html", "typed-results.html")
    if os.path.isfile(page):
        with open(page, encoding="utf-8") as f:
            html = f.read()
        check("typed-results: the exported HTML shows the Fisher comparison with the difference's interval",
              re.search(r"says &#39;10&#39;: standin/schema-reader \[loop/repl:shape\] \d+/16, standin/schema-reader "
                        r"\[loop/repl:typed\] \d+/16; difference [+-][0-9.]+, 95% CI \[[+-][0-9.]+, [+-][0-9.]+\] \(Newcombe\); "
                        r"Fisher&#39;s exact test \(two-sided\) p = [0-9.e-]+", html) is not None)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
