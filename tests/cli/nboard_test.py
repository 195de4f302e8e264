#!/usr/bin/env python3
"""nboard_test.py - a scripted NBoard session with `leuctra engine --protocol nboard` (Reversi
GUIs; docs/PROTOCOL.md, NBoard), as the NBoard GUI drives it: `nboard 2`, `set depth`, `set game`
in GGF, then a whole game in which the engine answers every `go` with `=== MOVE/EVAL/TIME` and
the script plays that move back with `move`, a `ping` before every change of position and a
`hint` now and then; every move is checked against an Othello move generator of this file's own,
so a wrong move cannot pass because the engine agrees with itself.  Also: GGF games with passes
and times, the protocol-1 bare move, and bad lines (a bad game, an illegal move: a status line,
nothing changed; unknown commands: ignored).

    LEUCTRA=build/leuctra python3 tests/cli/nboard_test.py

Each read waits for a whole line with a generous timeout, so a loaded machine is slow but never
wrong.  Prints one line per failed check, ends with "N passed, N failed".
"""
import os
import queue
import subprocess
import sys
import tempfile
import threading
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/checks.py
from checks import check, summary  # noqa: E402

LEUCTRA = os.environ.get("LEUCTRA")
if not LEUCTRA:
    sys.exit("set LEUCTRA to the leuctra binary")
LINE_TIMEOUT = 60.0
START_BOARD = "-" * 27 + "O*------*O" + "-" * 27
DEPTH = 4       # 2,441 visits a search: a fast game that still searches


# ------------------------------------------------------------------ Othello, independently

def flips(board, square, player):
    """The squares that placing `player` ('*' or 'O') on `square` (0-63) turns."""
    if board[square] != "-":
        return []
    other = "O" if player == "*" else "*"
    row, col = divmod(square, 8)
    turned = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr == dc == 0:
                continue
            r, c, line = row + dr, col + dc, []
            while 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == other:
                line.append(r * 8 + c)
                r, c = r + dr, c + dc
            if line and 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == player:
                turned += line
    return turned


def legal_moves(board, player):
    return [s for s in range(64) if flips(board, s, player)]


def play(board, square, player):
    b = list(board)
    for s in flips(board, square, player) + [square]:
        b[s] = player
    return "".join(b)


def square_name(s):
    return "ABCDEFGH"[s % 8] + str(s // 8 + 1)


def square_of(name):
    return (int(name[1]) - 1) * 8 + "ABCDEFGH".index(name[0].upper())


# ------------------------------------------------------------------ the engine

class NBoardEngine:
    def __init__(self):
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([LEUCTRA, "engine", "--protocol", "nboard"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix):
        """Lines up to and including the first that starts with prefix (None: the engine ended)."""
        seen = []
        while True:
            try:
                line = self.lines.get(timeout=LINE_TIMEOUT)
            except queue.Empty:
                return seen, None
            if line is None:
                return seen, None
            seen.append(line)
            if line.startswith(prefix):
                return seen, line

    def close(self):
        self.send("quit")
        try:
            rc = self.proc.wait(timeout=LINE_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = None
        self.stderr.seek(0)
        return rc, self.stderr.read().decode("utf-8", "replace")


def ggf(board=START_BOARD, side="*", moves=(), time="TI[5:00]"):
    body = "".join(f"{color}[{move}]" for color, move in moves)
    return f"(;GM[Othello]PC[test]PB[a]PW[b]RE[?]{time}TY[8]BO[8 {board} {side}]{body};)"


def pong(engine, n):
    engine.send(f"ping {n}")
    _, line = engine.read_until("pong")
    return line == f"pong {n}"


# ------------------------------------------------------------------ the tests

def test_full_game():
    e = NBoardEngine()
    e.send("nboard 2")
    _, name = e.read_until("set myname")
    check("nboard: the engine names itself", name == "set myname leuctra", name)
    e.send(f"set depth {DEPTH}")
    e.send("set game " + ggf())
    board, player, ping, plies, passes_in_a_row = START_BOARD, "*", 0, 0, 0
    all_answered = all_legal = True
    hints_ok = True
    while passes_in_a_row < 2 and plies < 70:
        ping += 1
        all_answered &= pong(e, ping)
        if plies % 10 == 3:
            e.send("hint 3")
            seen, line = e.read_until("status leuctra is waiting")
            searches = [s for s in seen if s.startswith("search ")]
            hints_ok &= line is not None and 1 <= len(searches) <= 3 and all(
                len(s.split()) >= 5 and s.split()[3] == "0" for s in searches)
            ping += 1
            all_answered &= pong(e, ping)
        e.send("go")
        seen, line = e.read_until("=== ")
        if line is None:
            all_answered = False
            break
        move = line.split()[1].split("/")[0]
        legal = legal_moves(board, player)
        if move == "PA":
            all_legal &= not legal
            passes_in_a_row += 1
        else:
            all_legal &= square_of(move) in legal
            board = play(board, square_of(move), player)
            passes_in_a_row = 0
        plies += 1
        ping += 1
        all_answered &= pong(e, ping)
        e.send(f"move {move}/0.00/0.01")
        player = "O" if player == "*" else "*"
        if not legal_moves(board, "*") and not legal_moves(board, "O"):
            break
    print(f"nboard session: {plies} plies, {ping} pings answered, the board ends {board.count('*')}-"
          f"{board.count('O')}", flush=True)
    check("full game: every command answered (pong, ===, hint lines)", all_answered and hints_ok, plies)
    check("full game: every move legal by an independent move generator", all_legal, plies)
    check("full game: played to its end (at least 60 plies, the board full or both blocked)",
          plies >= 58 and not legal_moves(board, "*") and not legal_moves(board, "O"), (plies, board))
    e.send("go")
    _, line = e.read_until("status")
    check("full game: go on a finished game says so", line is not None and "over" in line, line)
    rc, err = e.close()
    check("full game: exit 0, nothing on stderr", rc == 0 and not err, (rc, err))


def test_game_forms():
    e = NBoardEngine()
    e.send("nboard 2")
    e.send("set depth 2")
    # A GGF game with times on some moves: after these four it is Black's turn.
    e.send("set game " + ggf(moves=[("B", "F5//1.5"), ("W", "F6/-2/0.5"), ("B", "E6"), ("W", "F4")]))
    e.send("go")
    _, line = e.read_until("=== ")
    board = START_BOARD
    for i, m in enumerate(["F5", "F6", "E6", "F4"]):
        board = play(board, square_of(m), "*" if i % 2 == 0 else "O")
    move = line.split()[1].split("/")[0] if line else None
    check("ggf: the move is legal after the game's moves", move and square_of(move) in legal_moves(board, "*"), line)
    check("ggf: === MOVE/EVAL/TIME", line is not None and len(line.split()[1].split("/")) == 3, line)
    # A bare move (protocol 1) and a move with eval and time are played.
    check("ping after go", pong(e, 1))
    e.send("E3")
    e.send("move f3/1.0/0.2")
    e.send("hint 1")
    seen, _ = e.read_until("status leuctra is waiting")
    check("bare and timed moves: hint answers for the new position", any(s.startswith("search ") for s in seen), seen)
    check("ping after hint", pong(e, 2))
    # An illegal move and a bad game change nothing and say so in a status line.
    e.send("move A1")
    _, line = e.read_until("status")
    check("illegal move: a status line", line is not None and "a1" in line.lower(), line)
    e.send("set game (;GM[Othello]BO[8 nonsense *];)")
    _, line = e.read_until("status")
    check("bad game: a status line", line is not None and "set game" in line, line)
    e.send("set game (;GM[Othello]BO[10 " + "-" * 100 + " *];)")
    _, line = e.read_until("status")
    check("10x10 board: refused", line is not None and "8x8" in line, line)
    # Unknown commands and settings are ignored; the session goes on.
    e.send("set contempt 3")
    e.send("analyze")
    e.send("frobnicate 7")
    check("unknown commands ignored: ping still answered", pong(e, 3))
    e.send("learn")
    _, line = e.read_until("learned")
    check("learn -> learned", line == "learned", line)
    rc, err = e.close()
    check("forms: exit 0, nothing on stderr", rc == 0 and not err, (rc, err))


def test_passes_in_ggf():
    """A position where White must pass (found by the move generator above): the engine answers
    PA; after Black's B6, with White's pass left out of the game as GGF may, White can move."""
    board = "-------------------**----------*-O-*-*--O--*-*---O-------**-----"
    e = NBoardEngine()
    e.send("nboard 2")
    e.send("set depth 1")
    e.send("set game " + ggf(board=board, side="O"))
    e.send("go")
    _, line = e.read_until("=== ")
    check("a side with no move answers PA", line is not None and line.split()[1].startswith("PA"), line)
    # The same game with Black's reply and White's pass left out, as GGF may: White to move.
    check("ping", pong(e, 1))
    e.send("set game " + ggf(board=board, side="O", moves=[("B", "B6")]))
    e.send("go")
    _, line = e.read_until("=== ")
    after = play(board, square_of("B6"), "*")
    move = line.split()[1].split("/")[0] if line else "?"
    legal = legal_moves(after, "O")
    check("a pass left out of the game is put in", move != "PA" and square_of(move) in legal, (line, legal))
    rc, err = e.close()
    check("passes: exit 0, nothing on stderr", rc == 0 and not err, (rc, err))


def test_move_out_of_turn_in_ggf():
    """Two moves of one colour where the other side could move: no pass can be put in, so the game
    cannot be carried out; a status line says so and the game before it stays."""
    e = NBoardEngine()
    e.send("nboard 2")
    e.send("set depth 1")
    e.send("set game " + ggf(moves=[("B", "F5")]))
    check("ping", pong(e, 1))
    e.send("set game " + ggf(moves=[("B", "F5"), ("B", "F6")]))
    _, line = e.read_until("status")
    check("two black moves in a row: a status line naming the move",
          line is not None and "out of turn" in line and "F6" in line.upper(), line)
    e.send("go")
    _, line = e.read_until("=== ")
    after = play(START_BOARD, square_of("F5"), "*")
    move = line.split()[1].split("/")[0] if line else "?"
    check("the game before it stays: White to move after F5", square_of(move) in legal_moves(after, "O"), line)
    rc, err = e.close()
    check("out of turn: exit 0, nothing on stderr", rc == 0 and not err, (rc, err))


def test_refuses_other_variants():
    p = subprocess.run([LEUCTRA, "engine", "--protocol", "nboard", "--variant", "crossings"], capture_output=True,
                       text=True, input="")
    check("nboard with crossings: exit 2, one line", p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1,
          (p.returncode, p.stderr))
    p = subprocess.run([LEUCTRA, "engine", "--protocol", "uci"], capture_output=True, text=True, input="")
    check("unknown protocol: exit 2", p.returncode == 2 and "nboard" in p.stderr, (p.returncode, p.stderr))


def main():
    try:
        test_full_game()
        test_game_forms()
        test_passes_in_ggf()
        test_move_out_of_turn_in_ggf()
        test_refuses_other_variants()
    except Exception as ex:     # a crash of the test itself still ends with the summary line
        check("the test ran to its end", False, repr(ex))
    sys.exit(summary())


if __name__ == "__main__":
    main()
