#!/usr/bin/env python3
"""leuctra_records.py - reads leuctra self-play records files (docs/FORMAT.md) with nothing but
the Python standard library (struct, zlib).

Streams games one chunk at a time; every way a file can be wrong raises a RecordsError subclass
whose message names the file and, for damage, the byte offset of the chunk:

    EmptyFile, NotRecordsFile, UnsupportedVersion, DamagedHeader        (the file as a whole)
    TruncatedChunk, DamagedChunkHeader, ChunkCrcError, ChunkZlibError,
    MalformedChunk                                                       (one chunk; .offset)

Library use:

    from leuctra_records import RecordsFile
    with RecordsFile("run1.lrec") as f:
        print(f.header.variant, f.header.settings)
        for game in f.games():          # raises at the first damage; games(skip_damage=True)
            print(game.index, game.result, game.moves, game.values, game.visits)

Command line (the dump lines are byte for byte those of `leuctra records dump`):

    python3 scripts/leuctra_records.py dump FILE [--game N] [--values] [--visits] [--times]
    python3 scripts/leuctra_records.py verify FILE...
    python3 scripts/leuctra_records.py info FILE
"""

import struct
import sys
import zlib
from collections import namedtuple

FILE_MAGIC = b"\x89LREC\r\n\x1a"
CHUNK_MAGIC = b"LRCK"
VERSION = 2            # the newest format version read
FIRST_VERSION = 1
FILE_HEADER_FIXED = 16
FILE_HEADER_MAX_BODY = 1 << 21
CHUNK_HEADER_BYTES = 32
CHUNK_MAX_BYTES = 64 << 20
VALUE_SCALE = 65535
RESULTS = ("white-wins", "black-wins", "draw")
END_REASONS = ("rules", "ply-limit", "repetition", "no-move", "resign", "time")  # "time": version 2
NO_CLOCK = None
# Move shapes: direction steps of (file, number) for N, NE, E, SE, S, SW, W, NW.
DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))

Header = namedtuple("Header", "variant width height board settings version", defaults=(1,))
Visits = namedtuple("Visits", "total moves")  # moves: [(move text, visits)], most visited first


class Game(namedtuple("Game", "index seed start result end moves values visits times clocks final_clocks",
                      defaults=(None, None, (None, None)))):
    """One game: moves in RULES.md notation; values[i] the root value for the side to move at
    ply i (a float in [0, 1], or None); visits[i] a Visits, or None when the file has none;
    times[i] the seconds the move took and clocks[i] the mover's clock after it (None when not
    recorded; format version 2); final_clocks (white, black) at the end."""


class RecordsError(Exception):
    """Any problem with a records file; .path, and .offset for damage to a chunk."""

    def __init__(self, path, message, offset=None):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.offset = offset


class EmptyFile(RecordsError):
    pass


class NotRecordsFile(RecordsError):
    pass


class UnsupportedVersion(RecordsError):
    pass


class DamagedHeader(RecordsError):
    pass


class ChunkDamage(RecordsError):
    pass


class TruncatedChunk(ChunkDamage):
    pass


class DamagedChunkHeader(ChunkDamage):
    pass


class ChunkCrcError(ChunkDamage):
    pass


class ChunkZlibError(ChunkDamage):
    pass


class MalformedChunk(ChunkDamage):
    pass


class _Bad(Exception):
    """A decoding failure inside a chunk; becomes MalformedChunk with the chunk's offset."""


# ------------------------------------------------------------------ bytes


class _Reader:
    def __init__(self, data, pos=0, end=None):
        self.data, self.pos = data, pos
        self.end = len(data) if end is None else end

    def take(self, n):
        if n > self.end - self.pos:
            raise _Bad("record cut short")
        b = self.data[self.pos:self.pos + n]
        self.pos += n
        return b

    def u8(self):
        if self.pos >= self.end:
            raise _Bad("record cut short")
        self.pos += 1
        return self.data[self.pos - 1]

    def varint(self):
        pos = self.pos
        if pos < self.end and self.data[pos] < 0x80:     # one byte: the common case
            self.pos = pos + 1
            return self.data[pos]
        value = 0
        for i in range(10):
            byte = self.u8()
            if i == 9 and byte > 1:
                break
            value |= (byte & 0x7F) << (7 * i)
            if not byte & 0x80:
                return value
        raise _Bad("malformed varint")


def _varints(r, n):
    """n varints from r, in one loop (visit lists hold most of a file's numbers)."""
    data, pos, end, out = r.data, r.pos, r.end, []
    for _ in range(n):
        value = shift = 0
        while True:
            if pos >= end or shift > 63:
                raise _Bad("record cut short" if pos >= end else "malformed varint")
            byte = data[pos]
            pos += 1
            value |= (byte & 0x7F) << shift
            if byte < 0x80:
                break
            shift += 7
        out.append(value)
    r.pos = pos
    return out


def _unzigzag(v):
    return (v >> 1) ^ -(v & 1)


# ------------------------------------------------------------------ moves


def format_move(code):
    """The notation of a stored move code (square << 8 | shape); '?' when it names no move."""
    text = _MOVE_TEXT.get(code)
    if text is None:
        text = _MOVE_TEXT[code] = _move_text(code)
    return text


_MOVE_TEXT = {}  # code -> notation: a few hundred codes occur in a file, each formatted once


def _move_text(code):
    square, shape = code >> 8, code & 0xFF
    file, number = square >> 4, (square & 15) + 1
    if shape == 1:
        return "pass" if square == 0 else "?"
    name = chr(ord("a") + file) + str(number)
    if shape == 0:
        return name
    df, dn = DIRECTIONS[shape >> 5]
    distance = (shape >> 1) & 15
    to_file, to_number = file + df * distance, number + dn * distance
    if distance == 0 or not (0 <= to_file < 16 and 1 <= to_number <= 16):
        return "?"
    return name + ("x" if shape & 1 else "-") + chr(ord("a") + to_file) + str(to_number)


# ------------------------------------------------------------------ one game


def _read_moves(r, plies):
    if plies > (r.end - r.pos) // 2:
        raise _Bad("ply count larger than the record")
    moves = []
    for _ in range(plies):
        hi, lo = r.take(2)
        text = format_move(hi << 8 | lo)
        if text == "?":
            raise _Bad("a move code that names no move")
        moves.append(text)
    return moves


def _read_values(r, plies):
    values, prediction = [], 32768
    for _ in range(plies):
        code = r.varint()
        if code > 4 * VALUE_SCALE + 4:
            raise _Bad("a root value outside 0..65535")
        if code == 0:
            values.append(None)
            prediction = VALUE_SCALE - prediction
            continue
        q = prediction + _unzigzag(code - 1)
        if not 0 <= q <= VALUE_SCALE:
            raise _Bad("a root value outside 0..65535")
        values.append(q / VALUE_SCALE)
        prediction = VALUE_SCALE - q
    return values


def _read_ply_visits(r):
    """One ply's list: its length, the total's excess over the listed visits, the move codes
    ascending as differences, then the counts; returned most visited first, ties by code."""
    n = r.varint()
    extra = _unzigzag(r.varint())
    if n > (r.end - r.pos) // 2:
        raise _Bad("a visit list larger than the record")
    codes, code = [], 0
    for k, d in enumerate(_varints(r, n)):
        code += d
        if (k > 0 and d == 0) or code > 0xFFFF:
            raise _Bad("a bad move in a visit list")
        codes.append(code)
    counts = _varints(r, n)
    if n and max(counts) > 0xFFFFFFFF:
        raise _Bad("a bad visit count in a visit list")
    total = sum(counts) + extra
    if not 0 <= total <= 0xFFFFFFFF:
        raise _Bad("a total visit count outside 0..2^32-1")
    pairs = sorted(zip(counts, codes), key=lambda p: (-p[0], p[1]))
    moves = [(format_move(c), v) for v, c in pairs]
    if any(text == "?" for text, _ in moves):
        raise _Bad("a bad move in a visit list")
    return Visits(total, moves)


def _read_times(r, plies):
    times = []
    for _ in range(plies):
        code = r.varint()
        if code > (1 << 31):
            raise _Bad("a move's time outside 0..2^31-1 ms")
        times.append(None if code == 0 else (code - 1) / 1000)
    return times


def _read_clock(r):
    code = r.varint()
    if code == 0:
        return None
    v = _unzigzag(code - 1)
    if abs(v) > (1 << 31) - 1:
        raise _Bad("a clock outside +-2^31-1 ms")
    return v / 1000


def _read_game(r, board, version):
    body_len = r.varint()
    if body_len > r.end - r.pos:
        raise _Bad("record length past the end of the chunk")
    b = _Reader(r.data, r.pos, r.pos + body_len)
    r.pos += body_len
    index = b.varint()
    seed = struct.unpack("<Q", b.take(8))[0]
    result, end, flags = b.u8(), b.u8(), b.u8()
    known_ends, known_flags = (len(END_REASONS), 15) if version >= 2 else (len(END_REASONS) - 1, 3)
    if result > 2 or end >= known_ends or flags & ~known_flags:
        raise _Bad("bad result, end reason or flags")
    start_len = b.varint()
    if start_len >= 320:
        raise _Bad("start position too long")
    start = b.take(start_len).decode("ascii", "replace") or board
    plies = b.varint()
    moves = _read_moves(b, plies)
    values = _read_values(b, plies) if flags & 1 else [None] * plies
    visits = [_read_ply_visits(b) for _ in range(plies)] if flags & 2 else [None] * plies
    times = _read_times(b, plies) if flags & 4 else [None] * plies
    clocks, final = [None] * plies, (None, None)
    if flags & 8:
        clocks = [_read_clock(b) for _ in range(plies)]
        final = (_read_clock(b), _read_clock(b))
    return Game(index, seed, start, RESULTS[result], END_REASONS[end], moves, values, visits, times, clocks, final)


# ------------------------------------------------------------------ the file


def _parse_header_body(body):
    r = _Reader(body)
    variant = r.take(r.u8()).decode("ascii")
    width, height = r.u8(), r.u8()
    board_len = struct.unpack("<H", r.take(2))[0]
    board = r.take(board_len).decode("ascii")
    settings_len = struct.unpack("<I", r.take(4))[0]
    settings = r.take(settings_len).decode("utf-8", "replace")
    if not variant or not board or not width or not height:
        raise _Bad("empty field")
    return Header(variant, width, height, board, settings)


class RecordsFile:
    """An open records file: .header, then games() streams its games."""

    def __init__(self, path):
        self.path = path
        self._f = open(path, "rb")
        try:
            self._f.seek(0, 2)
            self.size = self._f.tell()
            self.header, self.first_chunk = self._read_header()
        except BaseException:
            self._f.close()
            raise

    def close(self):
        self._f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _read_at(self, offset, n):
        self._f.seek(offset)
        return self._f.read(n)

    def _read_header(self):
        fixed = self._read_at(0, FILE_HEADER_FIXED)
        if not fixed:
            raise EmptyFile(self.path, "empty file (no records header)")
        if fixed[:8] != FILE_MAGIC[:len(fixed[:8])]:
            raise NotRecordsFile(self.path, "not a leuctra records file (no records magic at offset 0)")
        if len(fixed) < FILE_HEADER_FIXED:
            raise DamagedHeader(self.path, f"file header cut short ({len(fixed)} of {FILE_HEADER_FIXED} bytes)")
        version, _, body_len = struct.unpack("<HHI", fixed[8:16])
        if not FIRST_VERSION <= version <= VERSION:
            raise UnsupportedVersion(
                self.path, f"records format version {version} is not supported (this reader reads versions "
                f"{FIRST_VERSION} to {VERSION})")
        if body_len > FILE_HEADER_MAX_BODY:
            raise DamagedHeader(self.path, f"damaged file header (body length {body_len})")
        total = FILE_HEADER_FIXED + body_len + 4
        whole = self._read_at(0, total)
        if len(whole) < total:
            raise DamagedHeader(self.path, f"file header cut short ({len(whole)} of {total} bytes)")
        if zlib.crc32(whole[:-4]) != struct.unpack("<I", whole[-4:])[0]:
            raise DamagedHeader(self.path, "damaged file header (CRC mismatch at offset 0)")
        try:
            return _parse_header_body(whole[FILE_HEADER_FIXED:-4])._replace(version=version), total
        except (_Bad, UnicodeDecodeError):
            raise DamagedHeader(self.path, "malformed file header (its fields do not fit)") from None

    # -------------------------------------------------------------- chunks

    def _chunk_header(self, b):
        """(stored, raw, games, first index, payload CRC) of a believable header, else None."""
        if len(b) < CHUNK_HEADER_BYTES or b[:4] != CHUNK_MAGIC:
            return None
        if zlib.crc32(b[:28]) != struct.unpack("<I", b[28:32])[0]:
            return None
        stored, raw, games, first, crc = struct.unpack("<IIIQI", b[4:28])
        if stored > CHUNK_MAX_BYTES or raw > CHUNK_MAX_BYTES or games == 0 or raw < 2 * games:
            return None
        return stored, raw, games, first, crc

    def _resync(self, start):
        """The offset of the next believable chunk header at or after start, or the file size."""
        at = start
        while at + CHUNK_HEADER_BYTES <= self.size:
            block = self._read_at(at, 1 << 16)
            i = block.find(CHUNK_MAGIC)
            while i >= 0:
                if self._chunk_header(self._read_at(at + i, CHUNK_HEADER_BYTES)):
                    return at + i
                i = block.find(CHUNK_MAGIC, i + 1)
            if len(block) < 4:
                break
            at += len(block) - 3
        return self.size

    def _damage(self, cls, offset, what, detail=""):
        return cls(self.path, f"{what} at offset {offset}{detail}", offset)

    def _chunk_at(self, offset):
        """(games, next offset) of the chunk at offset; raises ChunkDamage with .resume_at."""
        b = self._read_at(offset, CHUNK_HEADER_BYTES)
        if len(b) < CHUNK_HEADER_BYTES:
            e = self._damage(TruncatedChunk, offset, "truncated chunk",
                             f" (the file ends {len(b)} bytes into its header)")
            e.resume_at = self.size
            raise e
        h = self._chunk_header(b)
        if h is None:
            e = self._damage(DamagedChunkHeader, offset, "damaged chunk header")
            e.resume_at = self._resync(offset + 1)
            raise e
        stored, raw_len, count, first, crc = h
        end = offset + CHUNK_HEADER_BYTES + stored
        if end > self.size:
            e = self._damage(TruncatedChunk, offset, "truncated chunk",
                             f" (the file holds {self.size - offset} of its {end - offset} bytes)")
            e.resume_at = self._resync(offset + 1)
            raise e
        payload = self._read_at(offset + CHUNK_HEADER_BYTES, stored)
        games = self._decode_payload(offset, payload, crc, raw_len, count, first, end)
        return games, end

    def _decode_payload(self, offset, payload, crc, raw_len, count, first, end):
        try:
            if zlib.crc32(payload) != crc:
                raise self._damage(ChunkCrcError, offset, "CRC mismatch in chunk")
            try:
                d = zlib.decompressobj()
                raw = d.decompress(payload, raw_len + 1)
                if not d.eof or d.unused_data or d.unconsumed_tail or len(raw) != raw_len:
                    raise zlib.error("wrong length or trailing bytes")
            except zlib.error as z:
                raise self._damage(ChunkZlibError, offset, "zlib error in chunk", f": {z}") from None
            return self._decode_games(offset, raw, count, first)
        except ChunkDamage as e:
            e.resume_at = end
            raise

    def _decode_games(self, offset, raw, count, first):
        r, games = _Reader(raw), []
        while r.pos < r.end:
            try:
                games.append(_read_game(r, self.header.board, self.header.version))
            except _Bad as bad:
                raise self._damage(MalformedChunk, offset, "malformed game record in chunk",
                                   f": game {len(games) + 1} of the chunk: {bad}") from None
            if len(games) == 1 and games[0].index != first:
                raise self._damage(MalformedChunk, offset, "malformed game record in chunk",
                                   ": its first game is not the one its header names")
        if len(games) != count:
            raise self._damage(MalformedChunk, offset, "malformed game record in chunk",
                               f": {len(games)} games where its header says {count}")
        return games

    def chunks(self, skip_damage=False):
        """Yields (offset, games) per good chunk; damage raises, or with skip_damage is yielded
        as (offset, exception) and reading goes on with the next good chunk."""
        at = self.first_chunk
        while at < self.size:
            try:
                games, at_next = self._chunk_at(at)
            except ChunkDamage as e:
                if not skip_damage:
                    raise
                yield at, e
                at = e.resume_at
                continue
            yield at, games
            at = at_next

    def games(self, skip_damage=False):
        """Yields every game in file order; damage raises (or is skipped with skip_damage)."""
        for _, games in self.chunks(skip_damage):
            if not isinstance(games, ChunkDamage):
                yield from games


def verify(path):
    """(games, chunks, [damage exceptions]) of a file; whole-file problems raise."""
    games = chunks = 0
    damage = []
    with RecordsFile(path) as f:
        for _, item in f.chunks(skip_damage=True):
            if isinstance(item, ChunkDamage):
                damage.append(item)
            else:
                chunks += 1
                games += len(item)
    return games, chunks, damage


# ------------------------------------------------------------------ dump


def _seconds(v):
    return "-" if v is None else "%.3f" % v


def _annotation(game, i, values, visits, times=False):
    parts = []
    if values:
        v = game.values[i]
        parts.append("-" if v is None else "%.4f" % v)
    if visits:
        vis = game.visits[i] or Visits(0, [])
        text = "n=%d" % vis.total
        if vis.moves:
            text += " " + ";".join("%s:%d" % mv for mv in vis.moves)
        parts.append(text)
    if times:
        parts.append("t=%s clk=%s" % (_seconds(game.times[i]), _seconds(game.clocks[i])))
    return "{" + " ".join(parts) + "}"


def format_game(game, header, values=False, visits=False, times=False):
    """The line `leuctra records dump` prints for a game."""
    line = "game=%d seed=%d result=%s end=%s plies=%d" % (game.index, game.seed, game.result, game.end,
                                                          len(game.moves))
    if game.start != header.board:
        line += ' start="%s"' % game.start
    line += " moves:"
    for i, move in enumerate(game.moves):
        line += " " + move
        if values or visits or times:
            line += _annotation(game, i, values, visits, times)
    return line


def _main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    command, args = argv[1], argv[2:]
    flags = {a for a in args if a.startswith("--")}
    paths = [a for a in args if not a.startswith("--")]
    try:
        if command == "dump":
            game_index = None
            if "--game" in args:
                game_index = int(args[args.index("--game") + 1])
                paths.remove(str(game_index))
            with RecordsFile(paths[0]) as f:
                for g in f.games():
                    if game_index is None or g.index == game_index:
                        print(format_game(g, f.header, "--values" in flags, "--visits" in flags,
                                          "--times" in flags))
            return 0
        if command == "verify":
            bad = False
            for path in paths:
                games, chunks, damage = verify(path)
                for d in damage:
                    print(d)
                print("%s: %s, %d games in %d chunks" % (path, "DAMAGED" if damage else "ok", games, chunks))
                bad = bad or bool(damage)
            return 1 if bad else 0
        if command == "info":
            with RecordsFile(paths[0]) as f:
                games = list(f.games())
                plies = sum(len(g.moves) for g in games)
                print("%s %dx%d: %d games, %d plies, %.2f bytes per ply" % (
                    f.header.variant, f.header.width, f.header.height, len(games), plies, f.size / max(plies, 1)))
            return 0
    except RecordsError as e:
        print("leuctra_records: %s" % e, file=sys.stderr)
        return 2 if isinstance(e, (EmptyFile, NotRecordsFile, UnsupportedVersion)) else 1
    except OSError as e:
        print("leuctra_records: %s" % e, file=sys.stderr)
        return 2
    print("leuctra_records: unknown command %r (dump, verify, info)" % command, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(_main(sys.argv))
