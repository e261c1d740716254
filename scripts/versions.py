#!/usr/bin/env python3
"""The one version number (VERSION) and its mirrors, with the licence notices each package carries.

    python3 scripts/versions.py check          every mirror agrees with VERSION; make test runs it
    python3 scripts/versions.py set 0.2.0      writes VERSION and every mirror (docs/releasing.md)

A mirror is one line in one file, found by a pattern; `check` also runs the built `baton --version` when
.build/debug/baton exists (make test builds it first), checks that CHANGELOG.md has a section for the version, and
that each package names the Apache-2.0 licence (and ships a copy of LICENSE where its registry needs one in the
package). Prints one line per check and "versions: N passed, N failed"; exits 1 on any failure.
"""

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?$")

# (file, pattern with one group around the version): each is rewritten by `set` and read by `check`.
MIRRORS = [
    ("Sources/BatonCore/Baton.swift", r'public static let version = "([^"]+)"'),
    ("clients/react-native/package.json", r'^  "version": "([^"]+)"'),
    ("clients/flutter/pubspec.yaml", r"^version: (\S+)"),
    ("clients/android/build.gradle.kts", r'^version = "([^"]+)"'),
]

# (file, pattern that must be present): the licence named in each package manifest.
LICENCE_NOTICES = [
    ("Package.swift", r"Apache License, Version 2\.0"),
    ("clients/react-native/package.json", r'"license": "Apache-2\.0"'),
    ("clients/android/build.gradle.kts", r"Apache-2\.0"),
    ("clients/flutter/pubspec.yaml", r"Apache-2\.0"),
]

# Registries that take the licence from a file inside the package folder (npm, pub.dev): a copy of LICENSE.
LICENCE_COPIES = ["clients/react-native/LICENSE", "clients/flutter/LICENSE"]


def read_version():
    text = (REPO / "VERSION").read_text().strip()
    if not SEMVER.match(text):
        raise SystemExit(f"versions: VERSION holds {text!r}, not a semantic version")
    return text


def check():
    version = read_version()
    results = []

    def record(ok, line):
        results.append(ok)
        print(("ok   " if ok else "FAIL ") + line)

    for path, pattern in MIRRORS:
        file = REPO / path
        if not file.exists():
            record(False, f"{path}: missing (it mirrors VERSION)")
            continue
        found = re.findall(pattern, file.read_text(), re.MULTILINE)
        if len(found) != 1:
            record(False, f"{path}: expected one version line matching {pattern!r}, found {len(found)}")
        else:
            record(found[0] == version, f"{path}: {found[0]} (VERSION {version})")
    baton = REPO / ".build/debug/baton"
    if baton.exists():
        printed = subprocess.run([str(baton), "--version"], capture_output=True, check=False, text=True).stdout.strip()
        record(printed == f"baton {version}", f"baton --version: {printed!r}")
    else:
        print("not run: baton --version (.build/debug/baton is not built)")
    changelog = (REPO / "CHANGELOG.md").read_text()
    record(f"## [{version}]" in changelog, f"CHANGELOG.md: a section for {version}")
    for path, pattern in LICENCE_NOTICES:
        file = REPO / path
        record(file.exists() and re.search(pattern, file.read_text()) is not None, f"{path}: names Apache-2.0")
    licence = (REPO / "LICENSE").read_bytes()
    record(b"Apache License" in licence and b"Version 2.0, January 2004" in licence, "LICENSE: Apache License 2.0")
    for path in LICENCE_COPIES:
        file = REPO / path
        record(file.exists() and file.read_bytes() == licence, f"{path}: the same text as LICENSE")
    passed = sum(results)
    print(f"versions: {passed} passed, {len(results) - passed} failed")
    return 0 if all(results) else 1


def set_version(version):
    if not SEMVER.match(version):
        raise SystemExit(f"versions: {version!r} is not a semantic version (MAJOR.MINOR.PATCH[-PRERELEASE])")
    for path, pattern in MIRRORS:
        file = REPO / path
        text = file.read_text()
        new, count = re.subn(pattern, lambda m: m.group(0).replace(m.group(1), version), text, flags=re.MULTILINE)
        if count != 1:
            raise SystemExit(f"versions: {path}: expected one version line, found {count}; nothing written")
        file.write_text(new)
    (REPO / "VERSION").write_text(version + "\n")
    print(f"versions: VERSION and {len(MIRRORS)} mirrors set to {version}; add its CHANGELOG.md section")
    return 0


def main(argv):
    if len(argv) == 2 and argv[1] == "check":
        return check()
    if len(argv) == 3 and argv[1] == "set":
        return set_version(argv[2])
    print(__doc__.strip())
    return 0 if len(argv) == 2 and argv[1] in ("-h", "--help") else 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
