#!/usr/bin/env python3
"""Extracts the fenced Swift blocks of a Markdown guide into files scripts/typecheck-apple type-checks.

Usage: swift-doc-blocks.py GUIDE OUTDIR. Writes OUTDIR/block-N.swift for each block to check and prints one line per
check: "N LINE file [file ...]" (the block's number, the line of its fence, the files to type-check together: the
blocks it uses, then itself). A manifest prints "manifest N LINE file", a skipped block "skip N LINE reason". Exit 2
on a malformed marker.

A marker is an HTML comment on the line right before the fence (invisible in the rendered guide):
  <!-- swift-check: name=setup -->          names the block, so later blocks can use it
  <!-- swift-check: uses=setup,chia -->     checks the block together with the named blocks (context it assumes)
  <!-- swift-check: manifest -->            a package manifest: checked against the toolchain's PackageDescription
  <!-- swift-check: skip: <reason> -->      not checked; the reason is required and printed
Unmarked blocks are checked alone. Each file starts with `#sourceLocation`, so an error points at the guide's line;
a block without imports gets the guide's four (BatonApple, BatonClient, BatonCore, SwiftUI).
"""
import pathlib
import re
import sys

if sys.argv[1:2] in (["-h"], ["--help"]):
    print(__doc__)
    sys.exit(0)

MARKER = re.compile(r"^<!--\s*swift-check:\s*(.*?)\s*-->\s*$")
IMPORTS = "import BatonApple\nimport BatonClient\nimport BatonCore\nimport SwiftUI\n"


def main(guide, outdir):
    lines = pathlib.Path(guide).read_text(encoding="utf-8").splitlines()
    out = pathlib.Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    names, number, index = {}, 0, 0
    while index < len(lines):
        if lines[index].strip() != "```swift":
            index += 1
            continue
        fence = index + 1  # 1-based line of the fence
        end = index + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        body = lines[index + 1:end]
        number += 1
        options = {}
        match = MARKER.match(lines[index - 1]) if index > 0 else None
        if match:
            text = match.group(1)
            if text.startswith("skip:"):
                reason = text[len("skip:"):].strip()
                if not reason:
                    print(f"{guide}:{fence}: a skipped block needs a reason", file=sys.stderr)
                    return 2
                print(f"skip {number} {fence} {reason}")
                index = end + 1
                continue
            for part in text.split():
                if part == "manifest":
                    options["manifest"] = True
                    continue
                key, _, value = part.partition("=")
                if key not in ("name", "uses") or not value:
                    print(f"{guide}:{fence - 1}: unknown marker {part!r}", file=sys.stderr)
                    return 2
                options[key] = value
        path = out / f"block-{number}.swift"
        header = "" if any(line.startswith("import ") for line in body) else IMPORTS
        path.write_text(f'{header}#sourceLocation(file: "{guide}", line: {fence + 1})\n' + "\n".join(body) + "\n")
        if options.get("manifest"):
            print(f"manifest {number} {fence} {path}")
            index = end + 1
            continue
        files = []
        for name in options.get("uses", "").split(",") if "uses" in options else []:
            if name not in names:
                print(f"{guide}:{fence - 1}: uses {name!r}, which no earlier block is named", file=sys.stderr)
                return 2
            files += [f for f in names[name] if f not in files]
        files.append(str(path))
        if "name" in options:
            names[options["name"]] = files
        print(number, fence, " ".join(files))
        index = end + 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
