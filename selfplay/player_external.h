/*
 * player_external.h - a player that is another program speaking the engine protocol
 * (docs/PROTOCOL.md), so that two builds of different versions can meet in `leuctra match`:
 *
 *     engine:cmd=PATH[,args=WORDS]...[,visits=N][,time=S][,tc=TC][,timeout=S][,name=NAME]
 *            [,log=FILE][,option.NAME=VALUE]...
 *
 * args may be given more than once; each adds its blank-separated words to the command line.
 * option.NAME=VALUE is sent as `setoption name NAME value VALUE` after the handshake.  With tc=
 * (a game clock, time_control.h) every `go` carries the clocks (`go wtime W btime B winc WI binc
 * BI [movestogo N]`); the driver keeps them and forfeits an engine whose time runs out.  An
 * `error` answer to a search is asked once more before it counts (a passing failure inside the
 * engine), and a restart that fails is tried once more.
 *
 * An engine that crashes, hangs past its time, or answers with an illegal or garbled move loses
 * that game (its choose returns MOVE_NONE), the incident goes to the output's note as one line
 * beginning "engine incident: ", and the engine is restarted for the next game; "engine retry: "
 * and, when it is freed, "engine summary: " lines go there too.
 */
#ifndef LEUCTRA_PLAYER_EXTERNAL_H
#define LEUCTRA_PLAYER_EXTERNAL_H

#include "selfplay/player.h"

typedef enum {
    INCIDENT_CRASH,         /* the engine closed its output (exited, crashed) */
    INCIDENT_TIMEOUT,       /* no reply within the move time (or the clock) plus timeout= */
    INCIDENT_ILLEGAL,       /* a bestmove that is not a legal move of the position */
    INCIDENT_GARBLED,       /* a line with control bytes or longer than the protocol allows */
    INCIDENT_ERROR,         /* the engine answered a command with an `error` line */
    INCIDENT_KINDS
} IncidentKind;

typedef struct {
    long games;                     /* games begun */
    long incidents[INCIDENT_KINDS];
    long restarts;                  /* engine processes started after the first */
    long retries;                   /* searches asked again after an `error` reply */
} ExternalCounts;

/* True when a spec names an external engine ("engine" or "engine:..."). */
bool player_external_spec(const char *spec);

/* Starts the engine and completes the handshake; NULL with *err on a bad spec or an engine that
 * cannot be started or does not answer. */
Player *player_external_create(const Game *g, const char *spec, const PlayerOutput *out, Error *err);

/* The counts of an external player so far; false (and zeros) for any other player. */
bool player_external_counts(const Player *p, ExternalCounts *out);

const char *player_incident_kind_name(IncidentKind k);  /* "crash", "timeout", ... */

#define PLAYER_EXTERNAL_SPECS_HELP                                                                   \
    "  engine:cmd=PATH[,...]       another program speaking the engine protocol (docs/PROTOCOL.md);\n" \
    "                              keys: args=WORD (repeat it for more words), visits=N,\n"    \
    "                              time=SECONDS, tc=SECONDS[+INC] | MOVES/SECONDS[+INC] (a game\n" \
    "                              clock, sent as go wtime ...), timeout=SECONDS (grace past the\n" \
    "                              move time or the clock, default 10), name=NAME, log=FILE (the\n" \
    "                              engine's stderr),\n"                                             \
    "                              option.NAME=VALUE (a setoption; up to 8)\n"

#endif
