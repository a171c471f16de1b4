"""The conversation evaluation harness (e2e/conversations) in CI: every scripted
conversation through `adas up` with the demo MCP server and the harness's own
MCP servers. Every skill of the main and tuning sets must end correctly in ≥ 90% of
its conversations; no conversation of any set, the scored blind sets included,
may make a wrong side-effecting call."""

import pathlib
import subprocess
import sys
import json
import tempfile
import unittest

HARNESS = pathlib.Path(__file__).resolve().parents[1] / "conversations" / "harness.py"


class Conversations(unittest.TestCase):
    def test_every_conversation_ends_safely(self):
        out = pathlib.Path(tempfile.mkdtemp(prefix="adas-eval-")) / "measures.json"
        run = subprocess.run([sys.executable, str(HARNESS), "--json", str(out)],
                             capture_output=True, text=True, timeout=900)
        print(run.stdout)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        rows = json.loads(out.read_text())["rows"]
        self.assertGreaterEqual(sum(row["count"] for row in rows), 80)
        for row in rows:
            self.assertEqual(row["wrong"], 0, f"{row['skill']}: wrong side-effecting calls")
        untuned = [row for row in rows if row["tuned"] == "no"]
        self.assertGreaterEqual(len(untuned), 2)
        for row in untuned:
            self.assertGreaterEqual(row["rate"], 0.9, f"{row['skill']}: {row['correct']}/{row['count']} correct")

    def test_the_scored_blind_sets_make_no_wrong_side_effect(self):
        """The blind sets once scored (scored/, EVAL.md keeps their first
        figures): every conversation runs, none may make a wrong side-effecting
        call or break an invariant; their share right is reported, not
        asserted (it is in-sample now)."""
        out = pathlib.Path(tempfile.mkdtemp(prefix="adas-eval-scored-")) / "measures.json"
        run = subprocess.run([sys.executable, str(HARNESS), "--set", "scored", "--threshold", "0",
                              "--json", str(out)], capture_output=True, text=True, timeout=900)
        print(run.stdout[-3000:])
        self.assertEqual(run.returncode, 0, run.stdout[-3000:] + run.stderr[-3000:])
        rows = json.loads(out.read_text())["rows"]
        self.assertGreaterEqual(len(rows), 34)
        for row in rows:
            self.assertEqual(row["wrong"], 0, f"{row['skill']}: wrong side-effecting calls")

    def test_an_overconfident_inventing_model_makes_no_wrong_side_effect(self):
        """The model path against scripted_model.py: intents at 0.95 confidence
        whatever the message, every required input filled, invented when not
        said. Many conversations end differently; none may act wrongly."""
        out = pathlib.Path(tempfile.mkdtemp(prefix="adas-eval-model-")) / "measures.json"
        run = subprocess.run([sys.executable, str(HARNESS), "--model", "scripted", "--json", str(out)],
                             capture_output=True, text=True, timeout=900)
        print(run.stdout[-3000:])
        self.assertEqual(run.returncode, 0, run.stdout[-3000:] + run.stderr[-3000:])
        rows = json.loads(out.read_text())["rows"]
        self.assertGreaterEqual(sum(row["count"] for row in rows), 80)
        for row in rows:
            self.assertEqual(row["wrong"], 0, f"{row['skill']}: wrong side-effecting calls on the model path")


if __name__ == "__main__":
    unittest.main()
