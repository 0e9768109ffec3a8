#!/usr/bin/env python3
"""Fails on a `package` declaration that no other target names.

`package` is for what a target shares with its siblings (docs/architecture.md, "Access shows the layers"); anything
only its own target uses is internal or private. For each `package` declaration in a target (Sources/<target>, or a
reference backend's folder under ReferenceBackends/), the declared name must occur, as a whole word, in a file of
another target or of Tests/, or be one the language makes package: a type written in the signature of another package
declaration (or in an enum case's payload) of its target, or a member that implements a requirement of a package
protocol. `init`s and subscripts are named by their type, which is what the check looks for.

Usage: python3 .ci/check_package_access.py [--list]   (run from the repository's root)
"""
import os
import re
import sys

DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*package\s+(?:(?:static|final|override|mutating|nonmutating|indirect|lazy|convenience|required|nonisolated|weak|unowned)\s+)*"
    r"(func|var|let|struct|enum|class|actor|protocol|typealias|case|init|subscript|macro)\b\s*([A-Za-z_][A-Za-z0-9_]*|`[^`]+`)?")


def files(root):
    for folder, _, names in os.walk(root):
        for name in names:
            if name.endswith(".swift"):
                yield os.path.join(folder, name)


def target_folders():
    """Each target's folder: Sources/<target>, and under ReferenceBackends/ the top-most folders holding Swift files
    (the reference backends' targets, `path:` in Package.swift)."""
    folders = [os.path.join("Sources", name) for name in sorted(os.listdir("Sources")) if os.path.isdir(os.path.join("Sources", name))]
    for folder, subfolders, names in os.walk("ReferenceBackends"):
        subfolders.sort()
        if any(name.endswith(".swift") for name in names):
            folders.append(folder)
            subfolders.clear()  # a target's subfolders are part of it
    return folders


def main():
    listing = "--list" in sys.argv
    targets = {folder: list(files(folder)) for folder in target_folders()}
    texts = {path: open(path, encoding="utf-8").read() for paths in targets.values() for path in paths}
    tests = {path: open(path, encoding="utf-8").read() for path in files("Tests")}
    words_outside = {}
    for target in targets:
        others = [text for t, paths in targets.items() if t != target for text in (texts[p] for p in paths)] + list(tests.values())
        words_outside[target] = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", "\n".join(others)))
    # What the language requires to be package: types in package signatures and enum case payloads of the same
    # target, and the requirements of package protocols (their implementations and default implementations).
    required = {}
    for target, paths in targets.items():
        words = set()
        for path in paths:
            lines = texts[path].splitlines()
            for index, line in enumerate(lines):
                match = DECLARATION.match(line)
                if match or re.match(r"^\s*case\s+\w+\s*\(", line):
                    signature, depth, end = "", 0, index
                    while end < len(lines):
                        piece = lines[end].split("{")[0] if match else lines[end]
                        signature += " " + piece
                        depth += piece.count("(") - piece.count(")")
                        if depth <= 0 or "{" in lines[end]:
                            break
                        end += 1
                    own = (match.group(2) or "") if match else ""
                    words |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", signature)) - {own}
            for body in re.finditer(r"package\s+protocol\s+\w+[^{]*\{(.*?)\n\}", texts[path], re.S):
                words |= set(re.findall(r"(?:func|var|let|associatedtype)\s+([A-Za-z_][A-Za-z0-9_]*)", body.group(1)))
        required[target] = words
    protocol_requirements = set().union(*[
        set(re.findall(r"(?:func|var)\s+([A-Za-z_][A-Za-z0-9_]*)", body.group(1)))
        for text in texts.values() for body in re.finditer(r"package\s+protocol\s+\w+[^{]*\{(.*?)\n\}", text, re.S)])
    unused = []
    for target, paths in targets.items():
        for path in paths:
            for number, line in enumerate(texts[path].splitlines(), 1):
                match = DECLARATION.match(line)
                if not match:
                    continue
                kind, name = match.group(1), (match.group(2) or "").strip("`")
                if kind in ("init", "subscript") or not name:
                    continue  # named by their type
                if name not in words_outside[target] and name not in required[target] and name not in protocol_requirements:
                    unused.append((path, number, kind, name))
    for path, number, kind, name in unused:
        print(f"{path}:{number}: '{kind} {name}' is package but no other target names it: make it internal or private")
    if listing:
        return 0
    print(f"{len(unused)} package declaration(s) no other target uses" if unused else "every package declaration is used by another target")
    return 1 if unused else 0


if __name__ == "__main__":
    sys.exit(main())
