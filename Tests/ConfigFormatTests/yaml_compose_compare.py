#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Compare the Swift parser's trees with PyYAML's composed node graphs.

Usage: yaml_compose_compare.py DIR

For every NAME.yaml in DIR, DIR/NAME.json holds the tree the Swift parser built (see
canonicalJSON in TestSupport.swift). This script composes NAME.yaml with PyYAML -- the node
graph, not yaml.safe_load, because PyYAML resolves YAML 1.1 types (it would read 1:30 as 90 and
'on' as true) while wodclock reads text -- and compares kinds, styles, keys, scalar text and
start/end marks. It prints the first mismatches and exits 1 when there are any, 2 when PyYAML
is missing.
"""

import json
import os
import sys

try:
    import yaml
except ImportError:
    print("python3-yaml (PyYAML) is not installed; install it with 'apt-get install python3-yaml'")
    sys.exit(2)


def mark(m):
    return [m.line + 1, m.column + 1]


def to_tree(node):
    if node is None:
        return None
    if isinstance(node, yaml.ScalarNode):
        style = {None: "plain", "'": "single", '"': "double"}.get(node.style, repr(node.style))
        tree = {"kind": "scalar", "style": style, "text": node.value}
        if not (style == "plain" and node.value == ""):
            tree["start"] = mark(node.start_mark)
            tree["end"] = mark(node.end_mark)
        return tree
    flow = bool(node.flow_style)
    if isinstance(node, yaml.MappingNode):
        tree = {"kind": "mapping", "flow": flow, "start": mark(node.start_mark)}
        if flow:
            tree["end"] = mark(node.end_mark)
        tree["entries"] = [[to_tree(k), to_tree(v)] for k, v in node.value]
        return tree
    if isinstance(node, yaml.SequenceNode):
        tree = {"kind": "sequence", "flow": flow, "start": mark(node.start_mark)}
        if flow:
            tree["end"] = mark(node.end_mark)
        tree["items"] = [to_tree(item) for item in node.value]
        return tree
    return {"kind": "unknown node " + type(node).__name__}


def first_difference(ours, theirs, path="$"):
    if type(ours) is not type(theirs):
        return path, ours, theirs
    if isinstance(ours, dict):
        for key in sorted(set(ours) | set(theirs)):
            if key not in ours or key not in theirs:
                return path + "." + key, ours.get(key, "<absent>"), theirs.get(key, "<absent>")
            found = first_difference(ours[key], theirs[key], path + "." + key)
            if found:
                return found
        return None
    if isinstance(ours, list):
        if len(ours) != len(theirs):
            return path + ".length", len(ours), len(theirs)
        for index, (a, b) in enumerate(zip(ours, theirs)):
            found = first_difference(a, b, "%s[%d]" % (path, index))
            if found:
                return found
        return None
    return None if ours == theirs else (path, ours, theirs)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 64
    directory = sys.argv[1]
    names = sorted(n[:-5] for n in os.listdir(directory) if n.endswith(".yaml"))
    failures = []
    for name in names:
        with open(os.path.join(directory, name + ".yaml"), "rb") as f:
            text = f.read().decode("utf-8")
        with open(os.path.join(directory, name + ".json"), "rb") as f:
            ours = json.loads(f.read().decode("utf-8"))
        try:
            theirs = to_tree(yaml.compose(text))
        except yaml.YAMLError as error:
            failures.append("%s: PyYAML rejects a document we accept: %s" % (name, str(error).replace("\n", " | ")))
            continue
        found = first_difference(ours, theirs)
        if found:
            path, a, b = found
            failures.append("%s: differs at %s: ours %r, PyYAML %r" % (name, path, a, b))
    for failure in failures[:20]:
        print(failure)
    print("compared %d documents, %d mismatches" % (len(names), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
