#!/usr/bin/env python3
"""Regenerates the two result tables of docs/validation.md from the native build:
  - the memory table from `build/native/gpuguide validate --markdown` (informative rows marked from the case files,
    misses as known misses: the doctest driver fails on any miss that is not listed);
  - the time table and its summary block from `build/native/gg_tests -tc='time validation*'`.
Run from the repository root after `make native` (or cmake --build build/native --target gpuguide gg_tests).
Only the generated blocks change; the prose around them is kept."""
import json, os, re, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
doc_path = os.path.join(root, "docs", "validation.md")
cli = os.path.join(root, "build", "native", "gpuguide")
tests = os.path.join(root, "build", "native", "gg_tests")


def informative_ids():
    ids = set()
    folder = os.path.join(root, "tests", "validation")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            doc = json.load(f)
        for c in doc.get("cases", []) if isinstance(doc, dict) else []:
            if c.get("informative_only"):
                ids.add(c["id"])
    return ids


def memory_block():
    out = subprocess.run([cli, "validate", "--markdown"], capture_output=True, text=True, cwd=root).stdout
    info = informative_ids()
    rows, header = [], []
    judged = passed = known = 0
    for line in out.splitlines():
        if not line.startswith("| "):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] in ("file", "---"):
            header.append(line)
            continue
        case, result = cells[1], cells[-1]
        if case in info:
            cells[-1] = "info (not judged)"
        else:
            judged += 1
            if result == "pass":
                passed += 1
            else:
                cells[-1] = "MISS (known)"
                known += 1
        rows.append("| " + " | ".join(cells) + " |")
    total = len(rows)
    summary = (f"{total} of {total} memory cases run, {total - known} within tolerance. The CLI counts the "
               f"{total - judged} informative rows as within tolerance: of the {judged} judged cases, {passed} pass and "
               f"{known} are known misses.")
    return "\n".join(header + rows) + "\n\n" + summary + "\n"


def time_blocks():
    out = subprocess.run([tests, "-tc=time validation*"], capture_output=True, text=True, cwd=root).stdout
    summary = [l for l in out.splitlines() if l.startswith(("time validation:", "order:", "scaling "))]
    rows = []
    for line in out.splitlines():
        m = re.match(r"^(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+([+-]\S+%)\s+(\d+)%\s+(pass|FAIL|KNOWN|skip)( \(fit\))?\s*(.*)$",
                     line)
        if not m:
            continue
        case, q, measured, predicted, err, tol, result, fit, problem = m.groups()
        label = {"pass": "pass", "KNOWN": "MISS (known", "FAIL": "FAIL", "skip": "skipped"}[result]
        if result == "KNOWN":
            label += ", fit set)" if fit else ")"
        elif fit:
            label += " (fit set)"
        if result == "skip":
            measured_cell, predicted_cell, err_cell = measured, "-", "-"
            label = "skipped: " + problem
        else:
            measured_cell, predicted_cell, err_cell = measured, predicted, err
        rows.append(f"| {case} | {q} | {measured_cell} | {predicted_cell} | {err_cell} | {tol}% | {label} |")
    table = "| case | quantity | measured | predicted | error | tolerance | result |\n|---|---|---|---|---|---|---|\n"
    return "```\n" + "\n".join(summary) + "\n```\n", table + "\n".join(rows) + "\n"


def main():
    with open(doc_path, encoding="utf-8") as f:
        doc = f.read()
    # Memory: from the table header after "## Memory" to the summary line that ends the table.
    mem_start = doc.index("| file | case | quantity |", doc.index("## Memory"))
    mem_end = doc.index("\n", doc.index(" memory cases run, ", mem_start)) + 1
    doc = doc[:mem_start] + memory_block() + doc[mem_end:]
    # Time: the summary code block and the table that follows it, after "## Time".
    summary, table = time_blocks()
    t = doc.index("## Time")
    s_start = doc.index("```\ntime validation:", t)
    s_end = doc.index("```\n", s_start + 4) + 4
    tab_start = doc.index("| case | quantity | measured |", s_end)
    tab_end = tab_start
    lines = doc[tab_start:].split("\n")
    n = 0
    while n < len(lines) and lines[n].startswith("|"):
        n += 1
    tab_end = tab_start + len("\n".join(lines[:n])) + 1
    doc = doc[:s_start] + summary + doc[s_end:tab_start] + table + doc[tab_end:]
    with open(doc_path, "w", encoding="utf-8") as f:
        f.write(doc)
    print("docs/validation.md: memory and time tables regenerated")


if __name__ == "__main__":
    sys.exit(main())
