#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compacts free-exercise-db's exercises.json into the remote's exercise catalogue.

Usage: compact-exercises.py UPSTREAM_EXERCISES_JSON [OUTPUT]
       (OUTPUT: by default Sources/WebAssets/files/exercises.json beside this script's folder)

Keeps only what the exercise picker uses: the name, the primary muscles, the equipment, force,
mechanic, category and level. Each of the last six is a number into a list of the values
(null when the database has none), so the 873 exercises take about a quarter of the
upstream's bytes; one exercise per line keeps a diff of a new upstream readable. The upstream is
public domain (the Unlicense); its licence is shipped beside the catalogue as
exercises-LICENSE.txt.
"""

import json
import os
import sys

SOURCE = ("free-exercise-db, github.com/yuhonas/free-exercise-db, public domain (Unlicense): "
          "see /assets/exercises-LICENSE.txt")
CODED = ["equipment", "force", "mechanic", "category", "level"]


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 64
    here = os.path.dirname(os.path.abspath(__file__))
    output = argv[2] if len(argv) == 3 else os.path.join(
        here, "..", "Sources", "WebAssets", "files", "exercises.json")
    with open(argv[1], encoding="utf-8") as file:
        exercises = json.load(file)
    exercises.sort(key=lambda exercise: exercise["name"].casefold())
    muscles = sorted({m for exercise in exercises for m in exercise["primaryMuscles"]})
    values = {key: sorted({e[key] for e in exercises if e[key] is not None}) for key in CODED}

    def code(key, exercise):
        value = exercise[key]
        return None if value is None else values[key].index(value)

    rows = [
        [exercise["name"], [muscles.index(m) for m in exercise["primaryMuscles"]]]
        + [code(key, exercise) for key in CODED]
        for exercise in exercises
    ]

    def line(value):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    header = [("source", SOURCE), ("fields", ["name", "primary_muscles"] + CODED),
              ("primary_muscles", muscles)] + [(key, values[key]) for key in CODED]
    with open(output, "w", encoding="utf-8") as file:
        file.write("{\n")
        for key, value in header:
            file.write(f"{line(key)}:{line(value)},\n")
        file.write('"exercises":[\n')
        file.write(",\n".join(line(row) for row in rows))
        file.write("\n]}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
