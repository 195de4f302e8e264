/*
 * tune_network_pass.h - one position through the network's float model, forward and back
 * (tune_network_pass.c), for the fit (tune_network.c) and the losses.  Internal to tuner/.
 */
#ifndef LEUCTRA_TUNE_NETWORK_PASS_H
#define LEUCTRA_TUNE_NETWORK_PASS_H

#include "tune_network.h"

/* What a pass leaves: the activations and gradients the batch's sums read. */
typedef struct {
    float *h1;                  /* H: clamp(a, 0, 1) */
    float *da;                  /* H: d loss / d a (backward only) */
    float h2[NETWORK_L2];
    float dz2[NETWORK_L2];      /* d loss / d (b2 + W2' h1) (backward only) */
    double dv;                  /* d loss / d value logit */
    double *dl;                 /* per move: d loss / d its logit (policy_weight included) */
    double value_loss, policy_loss;     /* policy_loss 0 without a policy target */
} NetworkPass;

/* Position i of set through net: losses always, gradients where `backward`.  out->h1 and out->da
 * have room for H floats, out->dl for the position's moves. */
void tune_network_pass(const Network *net, const TuneNetworkSet *set, size_t i, double policy_weight, bool backward,
                       NetworkPass *out);

#endif
