/*
 * cmd_engine.c - `leuctra engine`: serve the engine protocol (docs/PROTOCOL.md) on stdin and
 * stdout, for match tools and GUIs, or with --protocol nboard the NBoard protocol of Reversi
 * GUIs.  The protocols themselves live in engine/.
 */
#include "cli.h"
#include "engine/engine.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

static int run_engine(int argc, char **argv)
{
    ArgReader r = {argc, argv, 1, "engine", false};
    GameOptions opts = {0};
    const char *protocol = "leuctra";
    while (r.index < argc)
        if (!arg_game_option(&r, &opts) && !arg_value(&r, "--protocol", &protocol))
            arg_common(&r, &command_engine);
    bool nboard = strcmp(protocol, "nboard") == 0;
    if (!nboard && strcmp(protocol, "leuctra") != 0)
        fail_exit("engine", EXIT_USAGE, "--protocol: '%s' is not leuctra or nboard", protocol);
    if (nboard && opts.variant && strcmp(opts.variant, "reversi") != 0)
        fail_exit("engine", EXIT_USAGE, "--protocol nboard plays reversi only, not %s", opts.variant);
    if (nboard)
        opts.variant = "reversi";
    Position pos;
    Game *g = cli_open_game("engine", &opts, &pos);
    Error err;
    Engine *e = engine_new(stdin, stdout, g, &pos, &err);
    if (!e) {
        game_free(g);
        fail_exit("engine", EXIT_FAILURE_RUN, "%s", err.msg);
    }
    /* A peer that goes away must end the session through a failed write, not kill the process
     * halfway through a reply. */
    signal(SIGPIPE, SIG_IGN);
    if (nboard)
        engine_serve_nboard(e);
    else
        engine_serve(e);
    engine_free(e);
    return 0;
}

const Command command_engine = {
    "engine", run_engine, "serve the engine protocol on stdin/stdout (for match tools, GUIs)",
    "usage: leuctra engine [--variant V] [--size WxH] [--position POS] [--protocol leuctra|nboard]\n\n"
    "Reads commands from stdin, one per line, and answers on stdout, in the spirit of UCI and GTP:\n"
    "a handshake, options, positions with moves, searches in the background with live 'info'\n"
    "lines and a final 'bestmove'.  docs/PROTOCOL.md specifies every command and reply; 'help'\n"
    "lists them.  A bad line gets one 'error ...' line and the engine carries on.  End of input\n"
    "is 'quit'.  The options set the game the session starts with (default: Epaminondas start).\n\n"
    "  --variant V     epaminondas (default), crossings, igfip or reversi\n"
    "  --size WxH      start position on another board (phalanx games)\n"
    "  --position POS  a position string, or 'start' (default)\n"
    "  --protocol P    leuctra (default), or nboard: the NBoard protocol of Reversi GUIs (NBoard;\n"
    "                  what Edax and NTest speak): nboard, set depth, set game (GGF), move, hint,\n"
    "                  go, ping, learn, quit (docs/PROTOCOL.md, NBoard)\n\n"
    "commands: leuctra|hello, isready, setoption name N value V, newgame [variant V] [size WxH],\n"
    "  position start|fen BOARD SIDE [moves M...], go [wtime W btime B [winc WI] [binc BI]\n"
    "  [movestogo N]] [visits N] [time S] | go infinite, stop,\n"
    "  wait, quit, moves, show|d, status, eval, perft DEPTH, help\n\n"
    "example session (> sent to the engine, < its replies; pv lines cut short here with ...):\n"
    "  > leuctra\n"
    "  < id name leuctra " LEUCTRA_VERSION "\n"
    "  < ... (id and option lines)\n"
    "  < leuctraok\n"
    "  > newgame variant reversi\n"
    "  > position start moves d3 c5\n"
    "  > go visits 2000\n"
    "  < info visits 2000 treevisits 2001 nodes 2001 winprob 0.4773 time 0.004 vps 498994 pv d6 e3 f4 ...\n"
    "  < bestmove d6\n"
    "  > go infinite\n"
    "  < info visits 116800 treevisits 118802 nodes 118802 winprob 0.4851 time 0.500 vps 233581 pv d6 ...\n"
    "  < info visits 199104 treevisits 201106 nodes 201106 winprob 0.4826 time 1.000 vps 199028 pv d6 ...\n"
    "  > stop\n"
    "  < info visits 223567 treevisits 225568 nodes 225568 winprob 0.4810 time 1.153 vps 193874 pv d6 ...\n"
    "  < bestmove d6\n"
    "  > quit\n\n"
    "example: printf 'position start\\ngo visits 400\\nwait\\n' | leuctra engine --variant crossings\n"
    "         leuctra engine --protocol nboard     (the engine command to give NBoard; a session is in\n"
    "                                              docs/PROTOCOL.md, NBoard)\n",
};
