/*
 * svg_board.c - writes a position as an SVG picture (svg_board.h): squares, coordinates,
 * stones, obstacles, towers (and Igfip crossings), the last move and the top-move arrows.  Sizes are in SVG user
 * units; the picture scales to whatever box shows it.
 */
#include "svg_board.h"
#include "svg_chart.h"

#include <ctype.h>
#include <string.h>

/* One square is CELL units; MARGIN leaves room for the coordinates on every side. */
enum { CELL = 40, MARGIN = 28 };

/* The rank a label names: the inverse of game_rank_label. */
static int label_to_rank(const Game *g, int label)
{
    return g->variant == VARIANT_REVERSI ? g->height - label : label - 1;
}

static double square_x(int file)
{
    return MARGIN + file * CELL + CELL / 2.0;
}

static double square_y(const Game *g, int rank)
{
    return MARGIN + (g->height - 1 - rank) * CELL + CELL / 2.0;
}

/* Reads one square ("e2", "p16") at *text and advances past it. */
static bool read_square(const Game *g, const char **text, int *file, int *rank)
{
    const char *s = *text;
    if (*s < 'a' || *s > 'z' || !isdigit((unsigned char)s[1]))
        return false;
    int f = *s++ - 'a', label = 0;
    while (isdigit((unsigned char)*s) && label < 100)
        label = label * 10 + (*s++ - '0');
    int r = label_to_rank(g, label);
    if (f >= g->width || r < 0 || r >= g->height)
        return false;
    *file = f;
    *rank = r;
    *text = s;
    return true;
}

int svg_move_squares(const Game *g, const char *text, int files[2], int ranks[2])
{
    if (strcmp(text, "pass") == 0)
        return 0;
    if (!read_square(g, &text, &files[0], &ranks[0]))
        return -1;
    if (*text == '\0')
        return 1;
    const char *to = text + 1;
    if ((*text != '-' && *text != 'x') || !read_square(g, &to, &files[1], &ranks[1]) || *to != '\0')
        return -1;
    return 2;
}

static void write_squares(FILE *out, const Game *g)
{
    for (int rank = 0; rank < g->height; rank++)
        for (int f = 0; f < g->width; f++)
            fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", MARGIN + f * CELL,
                    MARGIN + (g->height - 1 - rank) * CELL, CELL, CELL,
                    g->variant == VARIANT_REVERSI ? "#2e7d4f" : (f + rank) % 2 ? "#f0d9b5" : "#d9b38c");
}

/* Files along the top and bottom, rows along both sides, so any corner of a big board reads. */
static void write_coordinates(FILE *out, const Game *g)
{
    int bottom = MARGIN + g->height * CELL, right = MARGIN + g->width * CELL;
    fputs("<g font-family=\"sans-serif\" font-size=\"13\" fill=\"#444\" text-anchor=\"middle\">\n", out);
    for (int f = 0; f < g->width; f++) {
        fprintf(out, "<text x=\"%.1f\" y=\"%d\">%c</text>\n", square_x(f), MARGIN - 9, 'a' + f);
        fprintf(out, "<text x=\"%.1f\" y=\"%d\">%c</text>\n", square_x(f), bottom + 19, 'a' + f);
    }
    for (int rank = 0; rank < g->height; rank++) {
        double y = square_y(g, rank) + 5;
        fprintf(out, "<text x=\"%d\" y=\"%.1f\">%d</text>\n", MARGIN / 2, y, game_rank_label(g, rank));
        fprintf(out, "<text x=\"%d\" y=\"%.1f\">%d</text>\n", right + MARGIN / 2, y, game_rank_label(g, rank));
    }
    fputs("</g>\n", out);
}

/* A stone that never moves again (a Crossings tower, an Igfip crossing: 'T'/'t') is a stone with
 * a contrasting square inside: it reads as "fixed" at any size. */
static void write_piece(FILE *out, char c, double x, double y)
{
    if (c == 'x') {
        fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#555\"/>"
                     "<path d=\"M%.1f %.1fl%d %dM%.1f %.1fl%d -%d\" stroke=\"#999\" stroke-width=\"2\"/>\n",
                x - CELL / 2.0, y - CELL / 2.0, CELL, CELL, x - 12, y - 12, 24, 24, x - 12, y + 12, 24, 24);
        return;
    }
    bool white = c == 'W' || c == 'T';
    fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" stroke=\"#222\" stroke-width=\"1.5\"/>\n", x, y,
            CELL * 0.42, white ? "#fafafa" : "#1e1e1e");
    if (c == 'T' || c == 't')
        fprintf(out, "<rect class=\"tower\" x=\"%.1f\" y=\"%.1f\" width=\"16\" height=\"16\" fill=\"none\" "
                     "stroke=\"%s\" stroke-width=\"3\"/>\n", x - 8, y - 8, white ? "#b22" : "#e66");
}

static void write_pieces(FILE *out, const Game *g, const Position *pos)
{
    for (int rank = 0; rank < g->height; rank++)
        for (int f = 0; f < g->width; f++) {
            char c = game_square(g, pos, f, rank);
            if (c != '.')
                write_piece(out, c, square_x(f), square_y(g, rank));
        }
}

/* The last move: its squares tinted under the stones, joined by a line for a phalanx move. */
static void write_last_move(FILE *out, const Game *g, const char *move)
{
    int files[2], ranks[2];
    int n = svg_move_squares(g, move, files, ranks);
    for (int i = 0; i < n; i++)
        fprintf(out, "<rect class=\"last\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f5e663\" "
                     "fill-opacity=\"0.75\"/>\n",
                MARGIN + files[i] * CELL, MARGIN + (g->height - 1 - ranks[i]) * CELL, CELL, CELL);
    if (n == 2)
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c9a800\" stroke-width=\"4\" "
                     "stroke-linecap=\"round\"/>\n",
                square_x(files[0]), square_y(g, ranks[0]), square_x(files[1]), square_y(g, ranks[1]));
}

/* Width and opacity grow with the visit share, so the search's favourite stands out. */
static void write_arrow(FILE *out, const Game *g, const SvgArrow *a)
{
    int files[2], ranks[2];
    int n = svg_move_squares(g, a->move, files, ranks);
    double share = a->share < 0 ? 0 : a->share > 1 ? 1 : a->share;
    double opacity = 0.35 + 0.6 * share, width = 3 + 9 * share;
    if (n == 1)
        fprintf(out, "<circle class=\"arrow\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"#1565c0\" "
                     "fill-opacity=\"%.2f\"/>\n",
                square_x(files[0]), square_y(g, ranks[0]), 5 + 9 * share, opacity);
    else if (n == 2)
        fprintf(out, "<line class=\"arrow\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#1565c0\" "
                     "stroke-width=\"%.1f\" stroke-opacity=\"%.2f\" stroke-linecap=\"round\" "
                     "marker-end=\"url(#head)\"/>\n",
                square_x(files[0]), square_y(g, ranks[0]), square_x(files[1]), square_y(g, ranks[1]), width,
                opacity);
}

bool svg_board_write(FILE *out, const Game *g, const Position *pos, const SvgMarks *marks)
{
    int w = g->width * CELL + 2 * MARGIN, h = g->height * CELL + 2 * MARGIN;
    char title[64];
    snprintf(title, sizeof title, "%s %dx%d", g->name, g->width, g->height);
    svg_begin(out, w, h, title);
    fprintf(out, "<defs><marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"5\" refY=\"5\" markerWidth=\"2.5\" "
                 "markerHeight=\"2.5\" orient=\"auto\"><path d=\"M0 0L10 5L0 10z\" fill=\"#1565c0\"/></marker></defs>\n"
                 "<rect width=\"%d\" height=\"%d\" fill=\"#fbf8f1\"/>\n",
            w, h);
    write_squares(out, g);
    write_coordinates(out, g);
    if (marks && marks->last_move)
        write_last_move(out, g, marks->last_move);
    write_pieces(out, g, pos);
    for (int i = 0; marks && i < marks->num_arrows; i++)
        write_arrow(out, g, &marks->arrows[i]);
    return svg_end(out);
}
