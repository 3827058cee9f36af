package trace

import (
	"slices"
)

// MPI collectives on GPU buffers, as a program calls them. The
// communicator is every rank of the trace (MPI_COMM_WORLD); the mpi
// package turns each call into the point-to-point messages, copies and
// reductions Cray MPICH makes for it. Sizes are in bytes of MPI_CHAR, as
// the OSU benchmarks count them.

// MPI collective kinds.
const (
	MPIBcast     Kind = "mpi_bcast"     // MPI_Bcast(buf, bytes, root)
	MPIReduce    Kind = "mpi_reduce"    // MPI_Reduce(src, dst, bytes, MPI_SUM, root): dst is used at the root only
	MPIAllreduce Kind = "mpi_allreduce" // MPI_Allreduce(src, dst, bytes, MPI_SUM)
	// MPIReduceScatter is MPI_Reduce_scatter of bytes in all, split as the
	// OSU benchmark does (ReduceScatterBlock): rank i receives its block in dst.
	MPIReduceScatter Kind = "mpi_reduce_scatter"
	MPIAllgather     Kind = "mpi_allgather" // MPI_Allgather: bytes from each rank's src land at rank*bytes in every dst
	MPIAlltoall      Kind = "mpi_alltoall"  // MPI_Alltoall: block j (bytes) of src goes to rank j, into block i of its dst
	MPIBarrier       Kind = "mpi_barrier"   // MPI_Barrier
)

func init() {
	fieldsOf[MPIBcast] = []string{"buf", "bytes", "root"}
	fieldsOf[MPIReduce] = []string{"src", "dst", "bytes", "root"}
	for _, k := range []Kind{MPIAllreduce, MPIReduceScatter, MPIAllgather, MPIAlltoall} {
		fieldsOf[k] = []string{"src", "dst", "bytes"}
	}
	fieldsOf[MPIBarrier] = []string{}
}

// IsCollective says whether the op is an MPI collective.
func (o *Op) IsCollective() bool {
	switch o.Op {
	case MPIBcast, MPIReduce, MPIAllreduce, MPIReduceScatter, MPIAllgather, MPIAlltoall, MPIBarrier:
		return true
	}
	return false
}

// ReduceScatterBlock is the bytes rank i of n receives from an
// MPI_Reduce_scatter of total bytes, as osu_reduce_scatter splits it: an
// equal portion, one more for the first total mod n ranks.
func ReduceScatterBlock(total int64, n, i int) int64 {
	b := total / int64(n)
	if int64(i) < total%int64(n) {
		b++
	}
	return b
}

// Ranks are the ranks a trace's ops run on, in increasing order: the
// communicator of its collectives.
func Ranks(ops []Op) []int {
	var rs []int
	seen := map[int]bool{}
	for i := range ops {
		if r := ops[i].Rank; (i == 0 || r != ops[i-1].Rank) && !seen[r] { // a rank's calls mostly come together
			seen[r] = true
			rs = append(rs, r)
		}
	}
	slices.Sort(rs)
	return rs
}

// MaxCollBytes bounds a collective's bytes so that n blocks of it
// (MaxRanks of them) stay inside int64.
const MaxCollBytes = 1 << 40
