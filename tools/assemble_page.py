#!/usr/bin/env python3
"""Writes the single-file page: the HTML shell with the Emscripten JavaScript and the WebAssembly put inline.

The wasm is gzip-compressed (by zopfli: a gzip stream about 5% smaller than gzip -9 gives, which every browser's
DecompressionStream reads; Debian's package zopfli, installed by tools/setup.sh web), then base64-encoded into a non-executed <script type="application/octet-stream">;
the shell decompresses it with the browser's DecompressionStream and compiles it while it streams
(WebAssembly.instantiateStreaming). Against Emscripten's SINGLE_FILE (plain base64 inside the JavaScript) this
makes the page about 2.4x smaller uncompressed, so the HTML parser, the JavaScript parser and the base64 decoder
have less than half the text to go through before the first frame (docs/performance.md has the figures).

Usage: assemble_page.py SHELL APP_JS APP_WASM OUT
"""
import base64
import gzip
import os
import shutil
import subprocess
import sys


def main() -> int:
    if len(sys.argv) != 5:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    shell_path, js_path, wasm_path, out_path = sys.argv[1:]
    with open(shell_path, encoding="utf-8") as f:
        shell = f.read()
    with open(js_path, encoding="utf-8") as f:
        app_js = f.read()
    with open(wasm_path, "rb") as f:
        wasm = f.read()
    for marker in ("/*GG_APP_JS*/", "/*GG_WASM_GZIP_BASE64*/"):
        if shell.count(marker) != 1:
            print(f"{shell_path}: needs exactly one {marker} marker", file=sys.stderr)
            return 1
    # zopfli --i1: 977,635 bytes against gzip -9's 1,027,714 for the wasm of 2026-12-07 (4.13 MB), in 7 s of CPU;
    # --i5 and --i15 (its default) save 2.3 and 2.4 KB more in 12.5 and 25 s. Its header has no time stamp: the same
    # inputs give the same page, byte for byte.
    zopfli = shutil.which("zopfli")
    if zopfli is None:
        print("assemble_page.py: zopfli is missing (Debian package zopfli): run tools/setup.sh web", file=sys.stderr)
        return 1
    compressed = subprocess.run([zopfli, "--i1", "-c", wasm_path], check=True, capture_output=True).stdout
    if gzip.decompress(compressed) != wasm:
        print(f"assemble_page.py: zopfli's output of {wasm_path} does not decompress to it", file=sys.stderr)
        return 1
    packed = base64.b64encode(compressed).decode("ascii")
    # Inside an inline <script>, "</script" would end the element early; "<\/script" means the same in JavaScript.
    app_js = app_js.replace("</script", "<\\/script")
    page = shell.replace("/*GG_WASM_GZIP_BASE64*/", packed).replace("/*GG_APP_JS*/", app_js)
    os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)  # dist/ does not exist in a fresh clone
    tmp = out_path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(page)
    os.replace(tmp, out_path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
