/*
 * records.h - self-play game records: the data model of one game, and the versioned binary
 * records file (docs/FORMAT.md, byte for byte) that holds many of them.
 *
 * A records file is a header (variant, board, the writer's settings text) followed by
 * independently readable chunks, each zlib-compressed and CRC-32-checked, so that a reader
 * streams a file, skips any chunk, names a damaged one by its byte offset and resumes after it.
 *
 * Moves are stored in a form that needs no rules engine to print (RecordMove): the squares and
 * shape of the RULES.md notation.  Conversion to and from a core Move goes through the notation.
 *
 * Writers are crash safe: a finished game is on disk when records_append returns, and a run
 * killed at any moment leaves at most a partial trailing chunk, which records_resume removes.
 * Threads append games as they finish; records_canonicalize (at the end of a run) rewrites the
 * file sorted by game index, so the bytes depend on the games only, never on the thread count.
 *
 * Everything here is thread-safe: no global state; a RecordsWriter serialises its appends with a
 * mutex inside; a RecordsReader belongs to one thread at a time.
 */
#ifndef LEUCTRA_RECORDS_H
#define LEUCTRA_RECORDS_H

#include "core/game.h"
#include "core/tensors.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    RECORDS_VERSION = 2,            /* the newest format version this code writes and reads */
    RECORDS_VERSION_FIRST = 1,      /* the oldest it reads (and writes, for files that need no more) */
    RECORD_MAX_POSITION = 320,      /* a 16x16 position string is at most 273 characters */
    RECORD_MAX_VARIANT = 32,
    RECORD_NO_VALUE = -1,           /* RecordPly.value when the player reported none */
    RECORD_VALUE_SCALE = 65535,     /* value v in [0, 1] is stored as round(v * 65535) */
    RECORD_NO_TIME = -1,            /* RecordPly.time_ms when the move was not timed */
};
#define RECORD_NO_CLOCK INT32_MIN   /* RecordPly.clock_ms and final_clock_ms without a clock */

/* ---------------------------------------------------------------- moves */

/* A move as the notation writes it: `square` is file << 4 | (number - 1) of the square the
 * notation names first (the rearmost stone, or the Reversi square); `shape` is 0 for a
 * placement, 1 for a pass, otherwise direction << 5 | distance << 1 | capture (FORMAT.md). */
typedef struct {
    uint16_t code;      /* square << 8 | shape */
} RecordMove;

enum { RECORD_MOVE_TEXT = 16 };     /* "p16xp1" and its terminator fit */

/* Notation ("e2-e3", "a1xa3", "d3", "pass") to the stored form and back; no rules involved.
 * record_move_format writes "?" for a code that no notation has. */
bool record_move_parse(const char *text, RecordMove *out, Error *err);
void record_move_format(RecordMove m, char *buf, size_t len);
bool record_move_valid(RecordMove m);

/* The squares the notation of a stored move names (core/tensors.h), with no rules involved:
 * how a visit list becomes actions without replaying its moves.  False for a code that names no
 * move. */
bool record_move_squares(RecordMove m, MoveSquares *out);

/* A core Move of position pos to the stored form and back (through game_format_move and
 * game_parse_move, so a move that is illegal in pos is rejected with the rules' reason). */
bool record_move_from_move(const Game *g, const Position *pos, Move m, RecordMove *out, Error *err);
bool record_move_to_move(const Game *g, const Position *pos, RecordMove m, Move *out, Error *err);

/* ---------------------------------------------------------------- one game */

typedef enum {
    RECORD_END_RULES,       /* the rules ended the game (win, no legal move, Reversi over) */
    RECORD_END_PLY_LIMIT,   /* a draw adjudicated by the ply limit */
    RECORD_END_REPETITION,  /* a draw adjudicated on the third occurrence of a position */
    RECORD_END_NO_MOVE,     /* a player returned no legal move and lost */
    RECORD_END_RESIGN,      /* a player resigned */
    RECORD_END_TIME,        /* a player's clock ran out and it lost (version 2) */
    RECORD_END_COUNT
} RecordEnd;

const char *record_end_name(RecordEnd e);   /* "rules", "ply-limit", "repetition", ... */

typedef struct {
    RecordMove move;
    uint32_t visits;
} RecordVisit;

typedef struct {
    RecordMove move;        /* the move played */
    int32_t value;          /* 0..65535: the root value for the side to move; or RECORD_NO_VALUE */
    uint32_t total_visits;  /* the search's root visits (0: no search) */
    uint32_t first_visit;   /* this ply's distribution: visit[first_visit .. + num_visits) */
    uint32_t num_visits;
    int32_t time_ms;        /* the time the move took, milliseconds; RECORD_NO_TIME (version 2) */
    int32_t clock_ms;       /* the mover's clock after the move, ms; RECORD_NO_CLOCK (version 2) */
} RecordPly;

typedef struct {
    uint64_t index;         /* the game's global index in its run */
    uint64_t seed;          /* the seed it was played from */
    char start[RECORD_MAX_POSITION];    /* the start position string ("" when writing: the board's) */
    GameStatus result;      /* STATUS_WHITE_WINS, STATUS_BLACK_WINS or STATUS_DRAW */
    RecordEnd end;
    int32_t final_clock_ms[2];  /* [WHITE], [BLACK] at the end (negative: lost on time), or
                                   RECORD_NO_CLOCK (version 2) */
    int plies;
    RecordPly *ply;         /* plies entries */
    RecordVisit *visit;     /* every ply's distribution, one after the other */
    size_t num_visits;
    int ply_capacity;
    size_t visit_capacity;
} GameRecord;

void game_record_init(GameRecord *r);
void game_record_free(GameRecord *r);
/* Empties the record (no plies) and keeps its memory for the next game. */
void game_record_clear(GameRecord *r);
/* Appends a ply.  `visits` (n entries, distinct moves, may be NULL when n is 0) is copied and
 * put in the stored order: most visits first, ties by move code.  False when memory runs out.
 * The ply has no time and no clock until game_record_time_ply gives them. */
bool game_record_add_ply(GameRecord *r, RecordMove move, int32_t value, const RecordVisit *visits, int n,
                         uint32_t total_visits);
/* The last ply's time in seconds and the mover's clock after it (NAN: none), as milliseconds. */
void game_record_time_ply(GameRecord *r, double seconds, double clock_left);
/* Seconds as a stored clock (RECORD_NO_CLOCK for NAN, clamped to about +-24 days), and back. */
int32_t record_clock_ms(double seconds);
double record_clock_seconds(int32_t ms);        /* NAN for RECORD_NO_CLOCK */
/* The oldest format version that can hold the game (2 for clocks, times or a loss on time). */
int game_record_version(const GameRecord *r);
/* A copy of src into dst (an initialised record); false when memory runs out. */
bool game_record_copy(GameRecord *dst, const GameRecord *src);

/* A win probability to the stored value: NAN gives RECORD_NO_VALUE; others are clamped to [0, 1]. */
int32_t record_value_quantise(double v);
double record_value_double(int32_t q);      /* NAN for RECORD_NO_VALUE */

/* ---------------------------------------------------------------- errors */

typedef enum {
    RECORDS_OK,
    RECORDS_ERR_IO,         /* open, read, write or sync failed (errno text in the message) */
    RECORDS_ERR_EMPTY,      /* the file has no bytes */
    RECORDS_ERR_FOREIGN,    /* not a leuctra records file */
    RECORDS_ERR_VERSION,    /* a records file of a version this code does not read */
    RECORDS_ERR_HEADER,     /* the file header is truncated or damaged */
    RECORDS_ERR_TRUNCATED,  /* the file ends inside a chunk */
    RECORDS_ERR_CHUNK,      /* a damaged chunk header (bad magic or header CRC) */
    RECORDS_ERR_CRC,        /* a chunk's payload fails its CRC-32 */
    RECORDS_ERR_ZLIB,       /* a chunk's payload does not inflate */
    RECORDS_ERR_MALFORMED,  /* the inflated payload does not decode as games */
    RECORDS_ERR_MISMATCH,   /* files of different variants or boards; a header that differs */
    RECORDS_ERR_DUPLICATE,  /* two different games with one index (merge) */
    RECORDS_ERR_INVALID,    /* a game record that cannot be stored (bad field) */
    RECORDS_ERR_MEMORY,
    RECORDS_ERR_PATH,       /* a path that cannot be the file asked for (a folder, a device) */
    RECORDS_ERR_RULES,      /* a stored move, played or visited, that is no legal move of its
                               position as stored; a header board the rules cannot make */
} RecordsErrorKind;

/* Fills *e (core/game.h's Error: one line, "PATH: what, at offset N") with its kind and offset;
 * whether it is the input's fault or a failure follows from the kind: a file that is not
 * records, of another version or board, a missing file or a folder are the input's; damage,
 * memory and other I/O are failures. */
void records_error(Error *e, RecordsErrorKind kind, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---------------------------------------------------------------- the file header */

typedef struct {
    int version;                        /* the file's format version: 1, or 2 where games may have
                                           clocks, times and losses on time (FORMAT.md, Versions) */
    char variant[RECORD_MAX_VARIANT];   /* "epaminondas", "crossings", "reversi", "igfip" */
    int width, height;
    char board[RECORD_MAX_POSITION];    /* the board's start position, obstacles included */
    char *settings;                     /* free text, key=value lines (malloc'd; never NULL) */
} RecordsHeader;

/* A header for the games of g (its start position as the board) with a copy of `settings`
 * (NULL for none), of format version 1 (set h->version to 2 for games with clocks).  False when
 * memory runs out or settings is too long (1 MiB). */
bool records_header_init(RecordsHeader *h, const Game *g, const char *settings, Error *err);
void records_header_free(RecordsHeader *h);
/* The game that the header's variant and board describe (NULL plus *err if none). */
Game *records_header_game(const RecordsHeader *h, Error *err);

/* ---------------------------------------------------------------- reading */

typedef struct RecordsReader RecordsReader;

/* Opens a file and reads its header; NULL plus *err (EMPTY, FOREIGN, VERSION, HEADER, IO). */
RecordsReader *records_open(const char *path, Error *err);
const RecordsHeader *records_reader_header(const RecordsReader *r);
/* The next game into *out (an initialised record, reused): 1 a game, 0 the end of the file,
 * -1 damage or an I/O error described in *err.  After damage the next call goes on with the
 * first good chunk after it, so a caller may skip damage or stop at it. */
int records_next(RecordsReader *r, GameRecord *out, Error *err);
/* The file's size, and the offset of the chunk the last game came from. */
uint64_t records_reader_file_size(const RecordsReader *r);
uint64_t records_reader_chunk_offset(const RecordsReader *r);
void records_close(RecordsReader *r);

/* The chunks of a file from their headers alone (no payload read or inflated): where each
 * starts, how many games it holds and its payload's CRC-32, in file order, so that several
 * readers can each take a part of one file (the tuner under MPI) and an export can name what it
 * read (data/tensor_shards.h).  A damaged or truncated header fails with its offset. */
typedef struct {
    uint64_t offset;
    uint32_t games;
    uint32_t crc;
} RecordsChunk;

bool records_chunks(const char *path, RecordsChunk **chunks, size_t *count, Error *err);
/* The next records_next starts with the chunk at `offset` (an offset records_chunks gave). */
void records_seek(RecordsReader *r, uint64_t offset);

typedef struct {
    uint64_t offset;
    RecordsErrorKind kind;
    char msg[400];
} RecordsDamage;

typedef struct {
    uint64_t chunks, games, file_size;  /* the good chunks, and the games in them */
    int num_damaged;
    RecordsDamage *damaged;     /* num_damaged entries (malloc'd), in file order */
    int num_refused;            /* of them, RECORDS_ERR_RULES entries (records_verify_games) */
} RecordsVerifyReport;

/* Checks every chunk (CRC, inflate, decode).  False only when the file cannot be checked at all
 * (*err: IO, EMPTY, FOREIGN, VERSION, HEADER, MEMORY); damage goes into the report. */
bool records_verify(const char *path, RecordsVerifyReport *report, Error *err);
/* records_verify, and every game of the good chunks replayed with the rules of the file's board
 * (record_tensors_check): a game with a stored move, played or in a visit list, that is no legal
 * move of its position exactly as stored (capture mark included) is one entry of kind
 * RECORDS_ERR_RULES, "PATH: game G ply P: ..., in the chunk at offset N"; the chunk stays among
 * the good ones. */
bool records_verify_games(const char *path, RecordsVerifyReport *report, Error *err);
void records_verify_report_free(RecordsVerifyReport *report);

/* ---------------------------------------------------------------- writing */

typedef struct RecordsWriter RecordsWriter;

/* Whether path can be a records file, which is appended to and read back at offsets: false
 * (PATH) for "-" and for anything there that is not a regular file (a device, a FIFO, a
 * folder).  Symbolic links are followed; a name not there yet passes.  create and resume check
 * it themselves; a command may check it before any work. */
bool records_path_check(const char *path, Error *err);

/* Creates a new file holding only the header; fails (IO, "exists") if path exists.  The file
 * appears complete or not at all: the header is written to a temporary file, synced and linked.
 * A symbolic link at path is followed: the file is made where it leads, and the link stays. */
RecordsWriter *records_create(const char *path, const RecordsHeader *h, Error *err);

typedef struct {
    RecordsHeader header;       /* the file's header (free with records_resume_info_free) */
    uint64_t *indices;          /* the game indices present, ascending, distinct */
    size_t count;
    uint64_t games;             /* games in the file, duplicates included */
    uint64_t truncated_bytes;   /* bytes of a partial or damaged trailing chunk removed */
    uint64_t truncated_at;      /* where they began */
    int stale_temps;            /* temporary files of the file removed, left by a killed rewrite */
} RecordsResumeInfo;

/* Opens an existing file for appending: checks every chunk, removes a partial or damaged
 * trailing chunk (what a killed writer leaves) and the file's temporary files that a killed
 * rewrite left beside it (PATH.tmp.XXXXXX), and reports the games present.  Refuses a file
 * damaged before its last good chunk (CRC, ...), and one whose variant or board differs from
 * `expected` (may be NULL; settings are the caller's to compare).  Takes a lock on the file so
 * that a second writer fails. */
RecordsWriter *records_resume(const char *path, const RecordsHeader *expected, RecordsResumeInfo *info,
                              Error *err);
void records_resume_info_free(RecordsResumeInfo *info);
/* The same report of a finished file, read only (no lock, nothing removed): its header and the
 * indices of its games, ascending and distinct, read from the chunks without decoding the games.
 * Damage anywhere is refused. */
bool records_indices(const char *path, RecordsResumeInfo *info, Error *err);

/* Appends one game as its own chunk and syncs it to disk before returning.  Thread-safe.
 * On failure the file is cut back to its last whole chunk.  A game that needs a newer format
 * version than the file's (game_record_version) is refused (INVALID). */
bool records_append(RecordsWriter *w, const GameRecord *game, Error *err);
/* Closes the file; false if the final close failed (every appended game was already synced). */
bool records_writer_close(RecordsWriter *w, Error *err);

/* ---------------------------------------------------------------- rewriting */

/* Rewrites path with its games sorted by index, duplicate indices dropped (the first in file
 * order kept), packed into chunks of about 64 KiB: the canonical file, whose bytes depend only on
 * the header and the games.  Atomic: temporary file, fsync, rename.  A damaged file is refused. */
bool records_canonicalize(const char *path, Error *err);

/* Writes the games of every input into `out` in canonical form (atomically; out may be one of
 * the inputs).  Inputs must share variant and board; a game present in several inputs with
 * identical bytes is kept once, two different games with one index are refused (DUPLICATE).
 * The settings are the inputs' if they all agree, else each input's lines prefixed "shardN.". */
bool records_merge(const char *out, const char *const *inputs, int num_inputs, Error *err);
/* records_merge of the games whose index is below `below` alone (the others are left out). */
bool records_merge_below(const char *out, const char *const *inputs, int num_inputs, uint64_t below, Error *err);

#endif
