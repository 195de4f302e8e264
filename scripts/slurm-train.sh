#!/bin/bash
# slurm-train.sh - `leuctra train` as one Slurm job over several machines (docs/CLUSTER.md):
#
#   sbatch --nodes=8 --cpus-per-task=32 scripts/slurm-train.sh /shared/cr9 --generations 30 [TRAIN OPTIONS]
#
# One rank per node with all its cores as threads (--cpus-per-task); every step of the run spreads
# over the ranks.  The job can be requeued or submitted again: `train --resume` begins the run in
# a new or empty folder and continues it otherwise, with the same number of nodes.  DIR must be on
# a file system every node sees.  LEUCTRA names the MPI build (default build-mpi/leuctra).
#SBATCH --job-name=leuctra-train
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=32
#SBATCH --time=24:00:00
#SBATCH --output=train-%j.log
#SBATCH --open-mode=append
#SBATCH --requeue
set -eu
dir=${1:?usage: sbatch [--nodes=N] [--cpus-per-task=T] scripts/slurm-train.sh DIR TRAIN-OPTIONS...}
shift
export OMP_PROC_BIND=close
exec srun "${LEUCTRA:-build-mpi/leuctra}" train "$dir" --threads "${SLURM_CPUS_PER_TASK:-1}" --resume "$@"
