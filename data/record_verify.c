/*
 * record_verify.c - checking a whole records file: every chunk (header CRC, payload CRC-32,
 * inflate, the games decode), damage listed by the offset of its chunk (records_verify); and for
 * `records verify`, besides, every game of the good chunks replayed with the rules of the file's
 * board (records_verify_games): a stored move, played or in a visit list, that is no legal move
 * of its position exactly as stored - a visit list's "a2-b2" where the move captures - is damage
 * too, named by game and ply.  One chunk is in memory at a time.
 */
#include "record_internal.h"
#include "record_tensors.h"

#include <stdlib.h>
#include <string.h>

static bool add_damage(RecordsVerifyReport *rep, const Error *e)
{
    RecordsDamage *d = realloc(rep->damaged, (size_t)(rep->num_damaged + 1) * sizeof *d);
    if (!d)
        return false;
    rep->damaged = d;
    d += rep->num_damaged++;
    d->offset = e->offset;
    d->kind = e->kind;
    memcpy(d->msg, e->msg, sizeof d->msg);
    return true;
}

/* The rules' replay of every game of the chunk just scanned: one damage entry a game refused. */
static bool check_games_rules(const ChunkScanner *scan, RecordTensors *rt, GameRecord *r, RecordsVerifyReport *rep,
                              Error *err)
{
    ByteReader in = {scan->raw.data, scan->raw.data + scan->raw.len, false};
    char why[160];
    while (in.p < in.end) {
        Error refused, e;
        if (!record_decode(&in, scan->board, scan->version, r, why, sizeof why)) {
            /* the scanner decoded these games once already: only memory can fail now */
            records_error(err, RECORDS_ERR_MEMORY, scan->offset, "%s: %s", scan->path, why);
            return false;
        }
        if (record_tensors_check(rt, r, &refused))
            continue;
        records_error(&e, RECORDS_ERR_RULES, scan->offset, "%s: %s, in the chunk at offset %llu", scan->path,
                      refused.msg, (unsigned long long)scan->offset);
        rep->num_refused++;
        if (!add_damage(rep, &e)) {
            records_error(err, RECORDS_ERR_MEMORY, 0, "%s: out of memory", scan->path);
            return false;
        }
    }
    return true;
}

/* A header whose board the rules cannot make is damage (at offset 0); no game is replayed then. */
static bool board_damage(RecordsVerifyReport *rep, const char *path, const char *why, Error *err)
{
    Error e;
    records_error(&e, RECORDS_ERR_RULES, 0, "%s: the header's board: %s", path, why);
    if (add_damage(rep, &e))
        return true;
    records_error(err, RECORDS_ERR_MEMORY, 0, "%s: out of memory", path);
    return false;
}

static bool verify(const char *path, bool rules, RecordsVerifyReport *report, Error *err)
{
    memset(report, 0, sizeof *report);
    OpenedFile f;
    if (!record_open_file(path, &f, err))
        return false;
    report->file_size = f.size;
    Game *g = NULL;
    RecordTensors *rt = NULL;
    GameRecord r;
    game_record_init(&r);
    bool ok = true;
    if (rules) {
        Error why;
        g = records_header_game(&f.header, &why);
        rt = g ? record_tensors_new(g, 0) : NULL;
        if (!g)
            ok = board_damage(report, path, why.msg, err);
        else if (!rt)
            records_error(err, RECORDS_ERR_MEMORY, 0, "%s: out of memory", path);
        ok = ok && (!g || rt);
    }
    ChunkScanner scan;
    record_scanner_init(&scan, f.fd, path, f.first_chunk, f.size, &f.header);
    for (ScanResult s; ok && (s = record_scanner_next(&scan, err)) != SCAN_END;) {
        if (s == SCAN_CHUNK) {
            report->chunks++;
            report->games += scan.header.games;
            ok = !rt || check_games_rules(&scan, rt, &r, report, err);
        } else if (s == SCAN_FATAL) {
            ok = false;
        } else if (!add_damage(report, err)) {
            records_error(err, RECORDS_ERR_MEMORY, 0, "%s: out of memory", path);
            ok = false;
        }
    }
    record_scanner_free(&scan);
    record_close_file(&f);
    game_record_free(&r);
    record_tensors_free(rt);
    game_free(g);
    if (!ok)
        records_verify_report_free(report);
    return ok;
}

bool records_verify(const char *path, RecordsVerifyReport *report, Error *err)
{
    return verify(path, false, report, err);
}

bool records_verify_games(const char *path, RecordsVerifyReport *report, Error *err)
{
    return verify(path, true, report, err);
}

void records_verify_report_free(RecordsVerifyReport *report)
{
    free(report->damaged);
    report->damaged = NULL;
    report->num_damaged = 0;
}
