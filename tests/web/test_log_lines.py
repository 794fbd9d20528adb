"""What the service logs reaches standard error with its time and source, notices included: a
follow or a database that works again is logged at INFO, which Python's fallback would drop."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import logging, sys
from app import create_app
app = create_app({"TESTING": True, "INSTANCE_PATH": sys.argv[1]})
logging.getLogger("rules_index.web.following").info("content follow works again")
app.logger.error("an error of the app")
logging.getLogger("whoosh").info("a library's chatter")
"""


def test_log_lines_carry_time_and_source_and_keep_notices(tmp_path):
    result = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "instance")], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    stamp = r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\] "
    assert re.search(stamp + r"INFO rules_index\.web\.following: content follow works again$", result.stderr, re.M), result.stderr
    assert re.search(stamp + r"ERROR app: an error of the app$", result.stderr, re.M), result.stderr
    assert "chatter" not in result.stderr  # other libraries speak from WARNING up, as before
