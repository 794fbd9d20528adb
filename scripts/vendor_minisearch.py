"""Copy MiniSearch's browser build from the npm package that package.json pins into
static/vendor/minisearch.js, with its licence as a header. To update: set the new version in
package.json, ``npm install`` (which writes package-lock.json), then

    make vendor     # npm ci, then this script

The site serves the copy, so neither serving nor the static export needs npm. The build is the
package's UMD file (``dist/umd/index.js``, defines ``window.MiniSearch``); its source map is not
shipped, so the line naming it goes.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "node_modules" / "minisearch"
OUT = ROOT / "static" / "vendor" / "minisearch.js"


def header(version: str, licence: str) -> str:
    lines = [f"MiniSearch {version} (https://github.com/lucaong/minisearch), dist/umd/index.js of the",
             f"npm package minisearch@{version}, copied by scripts/vendor_minisearch.py.", "", *licence.strip().splitlines()]
    return "/*!\n" + "".join(f" * {line}".rstrip() + "\n" for line in lines) + " */\n"


def main() -> int:
    if not PACKAGE.exists():
        print("node_modules/minisearch is missing: install it with npm ci (make browser-tools)", file=sys.stderr)
        return 1
    pinned = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["dependencies"]["minisearch"]
    version = json.loads((PACKAGE / "package.json").read_text(encoding="utf-8"))["version"]
    if version != pinned:
        print(f"node_modules has minisearch {version}, package.json pins {pinned}: run npm install", file=sys.stderr)
        return 1
    build = (PACKAGE / "dist" / "umd" / "index.js").read_text(encoding="utf-8")
    build = "".join(line for line in build.splitlines(keepends=True) if not line.startswith("//# sourceMappingURL="))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(header(version, (PACKAGE / "LICENSE.txt").read_text(encoding="utf-8")) + build, encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)}: MiniSearch {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
