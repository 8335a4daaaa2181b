#!/usr/bin/env python3
"""Packs a record's folders of raw output into one archive each, as results/README.md asks.

The GPU machine receives the whole working tree on every call, within a limit on its size
that counts each file's overhead too, so thousands of small per-row bench outputs crowd out
what a call needs to carry (the GPU bundle). Every folder `results/RECORD/NAME` holding more
than `--max-files` files (default 20, counted recursively) becomes `results/RECORD/NAME.tar.xz`
(sorted, owner and times zeroed, so that packing the same files twice gives the same bytes),
the folder is removed (from git's index too, where it was tracked), and every markdown link
of the repository into the folder points at the archive instead.

    python3 scripts/pack-results.py [--max-files N] [--dry-run]

Run from anywhere in the repository, before committing a record. Stops, changing nothing,
if an archive of the same name already exists.
"""

import argparse
import os
import re
import subprocess
import sys


def repo_root() -> str:
    out = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def crowded_folders(results: str, max_files: int) -> list[str]:
    """`RECORD/NAME` for every folder two levels under `results` with more than `max_files` files."""
    found = []
    for record in sorted(os.listdir(results)):
        rec_path = os.path.join(results, record)
        if not os.path.isdir(rec_path):
            continue
        for name in sorted(os.listdir(rec_path)):
            path = os.path.join(rec_path, name)
            if os.path.isdir(path) and sum(len(files) for _, _, files in os.walk(path)) > max_files:
                found.append(f"{record}/{name}")
    return found


def pack(results: str, folder: str) -> None:
    parent, name = os.path.split(os.path.join(results, folder))
    subprocess.run(
        ["tar", "--sort=name", "--mtime=@0", "--owner=0", "--group=0", "--numeric-owner",
         "-cJf", f"{name}.tar.xz", name],
        cwd=parent, check=True)
    subprocess.run(["git", "rm", "-r", "-q", "--cached", "--ignore-unmatch", name], cwd=parent, check=True)
    subprocess.run(["rm", "-rf", name], cwd=parent, check=True)
    subprocess.run(["git", "add", f"{name}.tar.xz"], cwd=parent, check=True)


def relink(root: str, folders: list[str]) -> list[str]:
    """Points markdown links into any of `folders` (paths under results/) at their archives."""
    listed = subprocess.run(["git", "ls-files", "*.md"], cwd=root, capture_output=True, text=True, check=True)
    patterns = [
        re.compile(r"\]\(((?:\./)?(?:results/)?" + re.escape(f) + r")(?:/[^)\s]*)?\)") for f in folders
    ]
    changed = []
    for md in filter(None, listed.stdout.split("\n")):
        path = os.path.join(root, md)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            text = original = f.read()
        for pattern in patterns:
            text = pattern.sub(lambda m: f"]({m.group(1)}.tar.xz)", text)
        if text != original:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            changed.append(md)
    return changed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-files", type=int, default=20, help="files a folder may hold unpacked (20)")
    parser.add_argument("--dry-run", action="store_true", help="list the folders, change nothing")
    args = parser.parse_args()
    root = repo_root()
    results = os.path.join(root, "results")
    folders = crowded_folders(results, args.max_files)
    clashes = [f for f in folders if os.path.exists(os.path.join(results, f + ".tar.xz"))]
    if clashes:
        print("pack-results: an archive of the same name exists (unpack it into the folder and run again):",
              *clashes, sep="\n  ", file=sys.stderr)
        return 1
    for f in folders:
        print(f"{'would pack' if args.dry_run else 'packed'} results/{f}")
        if not args.dry_run:
            pack(results, f)
    if folders and not args.dry_run:
        for md in relink(root, folders):
            print(f"relinked {md}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
