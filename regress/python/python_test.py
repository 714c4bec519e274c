#!/usr/bin/python3
"""The Python front end (sc_main/python/angara_tlm, docs/PYTHON.md) against the built tools: an
experiment from a dict and from a TOML file with overrides gives the results angara-sim writes;
bad input and a model failure are exceptions carrying the tools' messages; a sweep gives a
DataFrame with a row per point; a config dict round-trips through TOML.
usage: python_test.py TOOLS_DIR MODULE_DIR REPOSITORY"""
import json
import subprocess
import sys
import tempfile
import tomllib
import unittest
from pathlib import Path

TOOLS, MODULE, REPO = (Path(a) for a in sys.argv[1:4])
sys.path.insert(0, str(MODULE))
import os  # noqa: E402
os.environ["ANGARA_BIN"] = str(TOOLS)
import angara_tlm as at  # noqa: E402

SMALL = {"topology": {"dims": [4, 4]}, "sim": {"warmup_cycles": 500, "measure_cycles": 2000}}


class Run(unittest.TestCase):
    def test_a_dict_gives_what_angara_sim_writes_in_both_modes(self):
        for mode in ("at", "lt"):
            r = at.run(SMALL, set={"traffic.rate": 0.1}, mode=mode)
            with tempfile.TemporaryDirectory() as work:
                config = Path(work) / "c.toml"
                config.write_text(at.to_toml(SMALL))
                out = Path(work) / "r.json"
                subprocess.run([str(TOOLS / "angara-sim"), "run", str(config), "--mode", mode,
                                "--set", "traffic.rate=0.1", "-q", "--out", str(out)], check=True)
                expected = json.loads(out.read_text())
            for j in (r, expected):
                j.pop("wall_seconds")
            self.assertEqual(r, expected, mode)
            self.assertEqual(r["config"]["sim"]["mode"], mode)
            self.assertFalse(r["saturated"])

    def test_a_toml_file_with_overrides(self):
        r = at.run(REPO / "configs" / "torus_8x8_dateline.toml",
                   set={"traffic.rate": 0.05, "sim.mode": "lt", "sim.measure_cycles": 2000})
        self.assertEqual(r["config"]["topology"]["dims"], [8, 8])
        self.assertEqual(r["config"]["traffic"]["rate"], 0.05)
        self.assertEqual(r["config"]["router"]["deadlock"], "dateline")

    def test_bad_input_is_a_config_error_naming_the_key(self):
        with self.assertRaises(at.ConfigError) as caught:
            at.run({"topology": {"dimz": [4]}})
        self.assertEqual(caught.exception.status, 2)
        self.assertIn("'topology.dimz'", caught.exception.message)
        self.assertIn("did you mean topology.dims", caught.exception.message)
        with self.assertRaises(at.ConfigError) as caught:
            at.run(SMALL, set={"traffic.rate": -1})
        self.assertIn("traffic.rate", caught.exception.message)

    def test_a_model_failure_is_a_model_error(self):
        with self.assertRaises(at.ModelError) as caught:
            at.run(REPO / "regress" / "golden" / "scenarios" / "credit_stall_4x4.toml",
                   set={"sim.watchdog_cycles": 500})
        self.assertEqual(caught.exception.status, 3)
        self.assertIn("deadlock", caught.exception.message)

    def test_the_results_file_is_kept_where_asked_and_never_overwritten(self):
        with tempfile.TemporaryDirectory() as work:
            out = Path(work) / "kept.json"
            at.run(SMALL, mode="lt", out=out)
            self.assertTrue(out.is_file())
            self.assertEqual(json.loads(out.read_text())["config"]["sim"]["mode"], "lt")
            at.run(SMALL, mode="at", out=out)  # earlier results are replaced
            self.assertEqual(json.loads(out.read_text())["config"]["sim"]["mode"], "at")
            mine = Path(work) / "mine.toml"  # anything else is not
            mine.write_text("[traffic]\nrate = 0.1\n")
            with self.assertRaises(at.ConfigError) as caught:
                at.run(SMALL, mode="lt", out=mine)
            self.assertIn("not a results file", caught.exception.message)
            self.assertEqual(mine.read_text(), "[traffic]\nrate = 0.1\n")


class Config(unittest.TestCase):
    def test_a_dict_round_trips_through_toml(self):
        config = {"topology": {"dims": [4, 4, 2]}, "router": {"deadlock": "dateline", "vcs": 2},
                  "traffic": {"rate": 0.125, "pattern": "transpose"},
                  "collective": {"trees": 0, "tree": [{"id": 1, "rows": []}]}}
        self.assertEqual(tomllib.loads(at.to_toml(config)), config)

    def test_config_shows_every_key_with_the_overrides(self):
        c = at.config(SMALL, set={"traffic.rate": 0.25}, mode="lt")
        self.assertEqual(c["traffic"]["rate"], 0.25)
        self.assertEqual(c["sim"]["mode"], "lt")
        self.assertEqual(c["topology"]["dims"], [4, 4])
        self.assertIn("drain_cycles", c["sim"])


class Sweep(unittest.TestCase):
    def test_a_sweep_gives_a_dataframe_with_a_row_per_point(self):
        spec = {"sweep": {"name": "r{traffic.rate}"},
                "config": dict(SMALL, sim={"mode": "lt", "measure_cycles": 2000}),
                "axis": [{"key": "traffic.rate", "values": [0.05, 0.1, 0.15]}]}
        with tempfile.TemporaryDirectory() as work:
            df = at.sweep(spec, out=Path(work) / "curve", jobs=2)
            self.assertEqual(list(df["traffic.rate"]), [0.05, 0.1, 0.15])
            self.assertEqual(set(df["status"]), {"ok"})
            accepted = list(df["accepted_flits_per_node_cycle"])
            self.assertEqual(accepted, sorted(accepted))  # below saturation all is accepted
            self.assertEqual(len(set(accepted)), 3)
            again = at.collect(Path(work) / "curve")  # a rerun resumes: the same table
            self.assertTrue(df.equals(again))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
