/*
 * reversi_rays.c - the squares past each square to the edge of the board in the eight
 * directions, for the ray form of flipped_by (reversi.h).  Built by constant expressions, so the
 * table is read-only data: a ray going up in bit index is a fixed pattern shifted left by the
 * square, a ray going down one shifted right from square 63, and a diagonal's bits that wrap
 * round into other files are masked off by the files on the ray's side.
 */
#include "reversi.h"

/* The files right of (above in bit index) and left of the square's file, on every rank. */
#define FILES_RIGHT(sq) (((0xFEull << ((sq) & 7)) & 0xFFull) * 0x0101010101010101ull)
#define FILES_LEFT(sq) ((0xFFull >> (8 - ((sq) & 7)) & 0xFFull) * 0x0101010101010101ull)

/* Up in bit index, in the lanes of DIR_SHIFT (+1, +7, +8, +9)... */
#define RAY_EAST(sq) ((0xFEull << (sq)) & (0xFFull << ((sq) & 56)))
#define RAY_SOUTH_WEST(sq) ((0x0002040810204080ull << (sq)) & FILES_LEFT(sq))
#define RAY_SOUTH(sq) (0x0101010101010100ull << (sq))
#define RAY_SOUTH_EAST(sq) ((0x8040201008040200ull << (sq)) & FILES_RIGHT(sq))
/* ...and down (-1, -7, -8, -9). */
#define RAY_WEST(sq) ((0x7F00000000000000ull >> (63 - (sq))) & (0xFFull << ((sq) & 56)))
#define RAY_NORTH_EAST(sq) ((0x0102040810204000ull >> (63 - (sq))) & FILES_RIGHT(sq))
#define RAY_NORTH(sq) (0x0080808080808080ull >> (63 - (sq)))
#define RAY_NORTH_WEST(sq) ((0x0040201008040201ull >> (63 - (sq))) & FILES_LEFT(sq))

#define RAYS(sq) {{RAY_EAST(sq), RAY_SOUTH_WEST(sq), RAY_SOUTH(sq), RAY_SOUTH_EAST(sq)}, \
                  {RAY_WEST(sq), RAY_NORTH_EAST(sq), RAY_NORTH(sq), RAY_NORTH_WEST(sq)}}
#define RAYS_8(r) RAYS(8 * (r)), RAYS(8 * (r) + 1), RAYS(8 * (r) + 2), RAYS(8 * (r) + 3), \
                  RAYS(8 * (r) + 4), RAYS(8 * (r) + 5), RAYS(8 * (r) + 6), RAYS(8 * (r) + 7)

const ReversiRays reversi_rays[SQUARES] = {
    RAYS_8(0), RAYS_8(1), RAYS_8(2), RAYS_8(3), RAYS_8(4), RAYS_8(5), RAYS_8(6), RAYS_8(7),
};
