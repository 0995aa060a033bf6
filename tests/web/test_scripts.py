"""The page's JavaScript holds to its own types, and each page talks to its server in one place.

Every script of the table's page (``firmware/readers/web/static``) and the club's
(``firmware/readers/club/static``) starts with ``// @ts-check`` and says its types in
JSDoc: the events, observations and answers it receives, each function's
parameters and returns. TypeScript's checker reads them as they are served
(nothing is compiled): ``tools/js/tsconfig.json`` says how strictly, and
``tools/js/package-lock.json`` pins the checker, which ``setup.sh`` installs
with ``npm ci`` off a Pi (a Pi gets no node, as for the MicroPython harness).

Each page exchanges with its server through one module, its ``service.js``: no
other script calls ``fetch`` or opens an ``EventSource``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.processes import on_a_pi

TOOLS = ROOT / "tools" / "js"
TSC = TOOLS / "node_modules" / ".bin" / "tsc"
CONFIG = TOOLS / "tsconfig.json"
PAGES = (ROOT / "firmware" / "readers" / "web" / "static",
         ROOT / "firmware" / "readers" / "club" / "static")
SCRIPTS = sorted(script for page in PAGES for script in page.glob("*.js"))
SERVICE = "service.js"
TIMEOUT_S = 180  # about 4 s on a developer's machine; a loaded one takes longer
TALKING = re.compile(r"\bfetch\s*\(|\bnew\s+EventSource\b")


def _pinned() -> str:
    lock = json.loads((TOOLS / "package-lock.json").read_text("utf-8"))
    return lock["packages"]["node_modules/typescript"]["version"]


def _tsc() -> list[str]:
    """The command that runs the pinned checker; a failure naming the fix when it is not
    installed (a skip on a Pi, where setup.sh installs no node)."""
    node = shutil.which("node")
    installed = TOOLS / "node_modules" / "typescript" / "package.json"
    missing = None
    if node is None:
        missing = "node is not installed"
    elif not TSC.exists() or not installed.exists():
        missing = "TypeScript is not installed in tools/js/node_modules"
    elif json.loads(installed.read_text("utf-8"))["version"] != _pinned():
        missing = "TypeScript in tools/js/node_modules is not the version package-lock.json pins"
    if missing is None:
        return [node, str(TSC)]
    if on_a_pi():
        pytest.skip(f"the page's types are not checked on a Raspberry Pi ({missing}; setup.sh "
                    "installs node off a Pi only)")
    pytest.fail(f"{missing}: run ./setup.sh (off a Pi it installs node and npm with apt, then "
                "runs npm ci in tools/js)")


def _check(config: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*_tsc(), "-p", str(config), "--pretty", "false"],
                          capture_output=True, text=True, timeout=TIMEOUT_S, cwd=ROOT)


@pytest.mark.processes
def test_the_pages_scripts_hold_to_their_types():
    result = _check(CONFIG)
    assert result.returncode == 0, (
        f"tsc -p tools/js/tsconfig.json found type errors in the page's JavaScript:\n"
        f"{result.stdout}{result.stderr}")


@pytest.mark.processes
def test_the_checker_finds_a_wrong_call(tmp_path):
    """The settings really check JavaScript: a call with one argument too many fails."""
    (tmp_path / "wrong.js").write_text(
        "// @ts-check\n/** @param {number} n */\nexport const twice = (n) => 2 * n;\n"
        "twice(1, 2);\n", "utf-8")
    config = tmp_path / "tsconfig.json"
    config.write_text(json.dumps({"extends": str(CONFIG), "include": ["wrong.js"]}), "utf-8")
    result = _check(config)
    assert result.returncode != 0 and "TS2554" in result.stdout, result.stdout + result.stderr


def test_every_script_is_checked():
    assert SCRIPTS, "no scripts found"
    unchecked = [str(s.relative_to(ROOT)) for s in SCRIPTS
                 if not s.read_text("utf-8").startswith("// @ts-check\n")]
    assert not unchecked, f"these scripts do not start with // @ts-check: {unchecked}"
    config = CONFIG.read_text("utf-8")
    for page in PAGES:
        assert f'"../../{page.relative_to(ROOT).as_posix()}/*.js"' in config, page


def test_only_the_service_module_talks_to_the_server():
    talking = [f"{s.relative_to(ROOT)}: {line.strip()}" for s in SCRIPTS if s.name != SERVICE
               for line in s.read_text("utf-8").splitlines() if TALKING.search(line)]
    assert not talking, f"only {SERVICE} may call fetch or open an EventSource:\n" + \
        "\n".join(talking)
    for page in PAGES:
        assert TALKING.search((page / SERVICE).read_text("utf-8")), page
