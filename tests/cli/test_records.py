#!/usr/bin/env python3
"""test_records.py - the Python reader (scripts/leuctra_records.py) against the C side.

Reads the records files that the C unit tests leave in a fixture directory (test
records_file.fixtures, run by tests/run.sh with LEUCTRA_RECORDS_FIXTURES set) and checks that the
Python reader gives the same games as `leuctra records dump`, line for line, and that damaged,
truncated, empty, foreign and future-version files get the same diagnosis (kind and chunk offset)
from the Python reader, from `leuctra records verify` and from `leuctra records dump`.

    LEUCTRA=build/leuctra python3 tests/cli/test_records.py FIXTURE_DIR

Ends with the line "N passed, N failed" that tests/run.sh adds up.
"""

import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
import leuctra_records as lr  # noqa: E402

LEUCTRA = os.environ.get("LEUCTRA", os.path.join(HERE, "..", "..", "build", "leuctra"))
FIXTURES = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("LEUCTRA_RECORDS_FIXTURES", "")
FILES = ("epaminondas.lrec", "crossings.lrec", "reversi.lrec", "moves-only.lrec")


def leuctra(*args):
    p = subprocess.run([LEUCTRA, "records", *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def chunk_offsets(data):
    """Offsets of every chunk, walking the headers' lengths."""
    body_len = struct.unpack("<I", data[12:16])[0]
    at, out = 16 + body_len + 4, []
    while at + 32 <= len(data):
        out.append(at)
        at += 32 + struct.unpack("<I", data[at + 4:at + 8])[0]
    return out


class FixtureTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="leuctra-records-py-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def fixture(self, name):
        path = os.path.join(FIXTURES, name)
        self.assertTrue(os.path.exists(path), f"missing fixture {path} (run the C unit tests first)")
        return path

    def write(self, name, data):
        path = os.path.join(self.tmp, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def python_dump(self, path, values, visits):
        with lr.RecordsFile(path) as f:
            return "".join(lr.format_game(g, f.header, values, visits) + "\n" for g in f.games())


class SameGames(FixtureTest):
    def test_dump_matches(self):
        for name in FILES:
            path = self.fixture(name)
            for flags in ((), ("--values",), ("--visits",), ("--values", "--visits")):
                rc, out, err = leuctra("dump", path, *flags)
                self.assertEqual(rc, 0, err)
                self.assertEqual(self.python_dump(path, "--values" in flags, "--visits" in flags), out,
                                 f"{name} {flags}")

    def test_fields(self):
        with lr.RecordsFile(self.fixture("reversi.lrec")) as f:
            self.assertEqual((f.header.variant, f.header.width, f.header.height), ("reversi", 8, 8))
            self.assertEqual(f.header.board, "8/8/8/3WB3/3BW3/8/8/8 b")
            self.assertIn("visits=800", f.header.settings)
            games = list(f.games())
        self.assertEqual(len(games), 12)
        for g in games:
            self.assertIn(g.result, lr.RESULTS)
            self.assertIn(g.end, lr.END_REASONS)
            self.assertEqual(len(g.values), len(g.moves))
            for move, vis in zip(g.moves, g.visits):
                self.assertIn(move, [m for m, _ in vis.moves])   # the played move is in the list
                counts = [n for _, n in vis.moves]
                self.assertEqual(counts, sorted(counts, reverse=True))
                self.assertGreaterEqual(vis.total, sum(counts))

    def test_canonical_is_sorted(self):
        with lr.RecordsFile(self.fixture("crossings.lrec")) as f:
            indices = [g.index for g in f.games()]
        self.assertEqual(indices, sorted(indices))

    def test_info_counts(self):
        import json
        path = self.fixture("epaminondas.lrec")
        rc, out, err = leuctra("info", "--json", path)
        self.assertEqual(rc, 0, err)
        info = json.loads(out)["files"][0]
        with lr.RecordsFile(path) as f:
            games = list(f.games())
        self.assertEqual(info["games"], len(games))
        self.assertEqual(info["positions"], sum(len(g.moves) for g in games))

    def test_export_rows(self):
        path = self.fixture("reversi.lrec")
        out = os.path.join(self.tmp, "r.csv")
        rc, _, err = leuctra("export", path, "-o", out)
        self.assertEqual(rc, 0, err)
        with open(out) as f:
            rows = f.read().splitlines()
        with lr.RecordsFile(path) as r:
            games = list(r.games())
        self.assertEqual(rows[0], "game,ply,position,side,move,result,value,visits")
        self.assertEqual(len(rows) - 1, sum(len(g.moves) for g in games))
        first = rows[1].split(",")
        self.assertEqual((int(first[0]), first[1], first[4]), (games[0].index, "0", games[0].moves[0]))
        self.assertEqual(first[7], ";".join("%s:%d" % mv for mv in games[0].visits[0].moves))


class Damage(FixtureTest):
    def damaged_copy(self, flip_at):
        with open(self.fixture("epaminondas.lrec"), "rb") as f:
            data = bytearray(f.read())
        data[flip_at(chunk_offsets(data))] ^= 0x40
        return self.write("damaged.lrec", bytes(data)), chunk_offsets(bytes(data))

    def check_named(self, path, cls, offset):
        with self.assertRaises(cls) as caught:
            with lr.RecordsFile(path) as f:
                list(f.games())
        self.assertEqual(caught.exception.offset, offset)
        self.assertIn(f"at offset {offset}", str(caught.exception))
        rc, out, _ = leuctra("verify", path)
        self.assertEqual(rc, 1)
        self.assertIn(f"at offset {offset}", out)
        rc, _, err = leuctra("dump", path)
        self.assertEqual(rc, 1)
        self.assertIn(f"at offset {offset}", err)
        self.assertEqual(len(err.strip().splitlines()), 1)

    def test_crc_mismatch(self):
        offsets = chunk_offsets(open(self.fixture("epaminondas.lrec"), "rb").read())
        path, _ = self.damaged_copy(lambda at: at[3] + 40)
        self.check_named(path, lr.ChunkCrcError, offsets[3])
        games, chunks, damage = lr.verify(path)
        self.assertEqual((games, chunks, [d.offset for d in damage]), (11, 11, [offsets[3]]))

    def test_damaged_chunk_header_resyncs(self):
        offsets = chunk_offsets(open(self.fixture("epaminondas.lrec"), "rb").read())
        path, _ = self.damaged_copy(lambda at: at[5] + 6)
        self.check_named(path, lr.DamagedChunkHeader, offsets[5])
        with lr.RecordsFile(path) as f:
            self.assertEqual(len(list(f.games(skip_damage=True))), 11)

    def test_truncated(self):
        with open(self.fixture("reversi.lrec"), "rb") as f:
            data = f.read()
        last = chunk_offsets(data)[-1]
        for cut in (last + 3, last + 31, last + 32, len(data) - 1):
            path = self.write("cut.lrec", data[:cut])
            self.check_named(path, lr.TruncatedChunk, last)

    def check_whole_file(self, data, cls, words, status):
        path = self.write("bad.lrec", data)
        with self.assertRaises(cls) as caught:
            lr.RecordsFile(path)
        self.assertIn(words, str(caught.exception))
        self.assertIn(path, str(caught.exception))
        for sub in ("info", "dump", "verify"):
            rc, out, err = leuctra(sub, path)
            self.assertEqual(rc, status, f"{sub}: {err}")
            self.assertIn(words, err)
            self.assertEqual(len(err.strip().splitlines()), 1)

    def test_empty_foreign_version(self):
        with open(self.fixture("reversi.lrec"), "rb") as f:
            data = f.read()
        self.check_whole_file(b"", lr.EmptyFile, "empty file", 2)
        self.check_whole_file(b"game,ply,position\n", lr.NotRecordsFile, "not a leuctra records file", 2)
        self.check_whole_file(data[:8] + b"\x03\x00" + data[10:], lr.UnsupportedVersion,
                              "version 3 is not supported", 2)
        self.check_whole_file(data[:12], lr.DamagedHeader, "cut short", 1)
        self.check_whole_file(data[:20] + bytes([data[20] ^ 1]) + data[21:], lr.DamagedHeader,
                              "damaged file header", 1)


class CommandLine(FixtureTest):
    def test_help_has_example(self):
        for sub in ("info", "verify", "dump", "export", "merge", "canonicalize"):
            rc, out, err = leuctra(sub, "--help")
            self.assertEqual((rc, err), (0, ""), sub)
            self.assertIn("example: leuctra records " + sub, out)
        rc, out, _ = leuctra("--help")
        self.assertEqual(rc, 0)
        self.assertIn("example:", out)

    def test_bad_input_is_one_line_and_status_2(self):
        path = self.fixture("reversi.lrec")
        for args in ((), ("frobnicate",), ("info",), ("info", "--bogus", path), ("dump", path, "--game", "x"),
                     ("dump", path, path), ("export", path), ("merge", "out.lrec"),
                     ("info", os.path.join(self.tmp, "missing.lrec"))):
            rc, out, err = leuctra(*args)
            self.assertEqual(rc, 2, args)
            if args:
                self.assertEqual(len(err.strip().splitlines()), 1, (args, err))
                self.assertEqual(out, "", args)

    def test_dump_one_game(self):
        path = self.fixture("moves-only.lrec")
        with lr.RecordsFile(path) as f:
            games = list(f.games())
            header = f.header
        rc, out, _ = leuctra("dump", path, "--game", str(games[4].index))
        self.assertEqual((rc, out), (0, lr.format_game(games[4], header) + "\n"))
        rc, out, err = leuctra("dump", path, "--game", "1000000")
        self.assertEqual((rc, out), (1, ""))
        self.assertIn("no game with index 1000000", err)

    def test_merge_and_canonicalize(self):
        src = self.fixture("moves-only.lrec")
        with open(src, "rb") as f:
            data = f.read()
        a, b = self.write("a.lrec", data), self.write("b.lrec", data)
        out = os.path.join(self.tmp, "out.lrec")
        rc, text, err = leuctra("merge", out, a, b)
        self.assertEqual(rc, 0, err)
        with lr.RecordsFile(src) as f:
            want = sorted(g.index for g in f.games())
        with lr.RecordsFile(out) as f:
            self.assertEqual([g.index for g in f.games()], want)   # identical duplicates kept once
        rc, _, err = leuctra("canonicalize", a)
        self.assertEqual(rc, 0, err)
        with open(a, "rb") as f, open(out, "rb") as g:
            self.assertEqual(f.read(), g.read())                    # one canonical form
        rc, _, err = leuctra("merge", out, a, self.fixture("reversi.lrec"))
        self.assertEqual(rc, 2)
        self.assertIn("do not merge", err)
        self.assertEqual([n for n in os.listdir(self.tmp) if ".tmp." in n], [])


class Moves(unittest.TestCase):
    def test_format_move(self):
        cases = {0x4102: "e2-e3", 0x0005: "a1xa3", 0x3200: "d3", 0x0001: "pass", 0xFFBE: "p16-a1",
                 0x00F2: "?", 0x0101: "?"}
        for code, text in cases.items():
            self.assertEqual(lr.format_move(code), text, hex(code))


def main():
    if not FIXTURES:
        print("test_records.py: give the fixture directory (see the docstring)", file=sys.stderr)
        print("0 passed, 1 failed")
        return 1
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    result = unittest.TextTestRunner(stream=sys.stderr, verbosity=1).run(suite)
    failed = len(result.failures) + len(result.errors)
    print("%d passed, %d failed" % (result.testsRun - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
