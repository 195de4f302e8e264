/*
 * tune_network_mpi.h - the network fit's positions over several processes (tune_network_mpi.c):
 * each process reads the positions of its share of the games (tune_read_share: the shares
 * joined in rank order are the one-process games), and the sets are then gathered so that every
 * process holds the whole of them, row for row the one-process sets.  Internal to tuner/.
 */
#ifndef LEUCTRA_TUNE_NETWORK_MPI_H
#define LEUCTRA_TUNE_NETWORK_MPI_H

#include "tune_network_data.h"

/* Where this process's `count` rows begin among every process's (*first: the rows of the lower
 * ranks) and how many there are in all (*total).  Collective; false on every rank when memory
 * runs out. */
bool tune_network_place(const MpiEnv *env, uint64_t count, uint64_t *first, uint64_t *total);

/* The whole set on every process (*whole, allocated here), from each one's rows `set` (in rank
 * order) and its positions kept whole (every stride-th row of the whole set): the CSR starts
 * renumbered, the sample rows k x stride.  Collective; false on every rank when memory runs out
 * (nothing is then left allocated in *whole). */
bool tune_network_set_gather(const MpiEnv *env, const TuneNetworkSet *set, size_t stride, TuneNetworkSet *whole);

#endif
