package validate

import "fmt"

// Cray MPICH 8.1.31's osu_allreduce on device buffers, one Frontier node of
// 8 GCDs: a published sweep no constant was fitted to (docs/validation.md,
// "C"). 8.1.31 runs its GPU allreduce kernel by default, so the points run
// with MPICH_GPU_ALLREDUCE_USE_KERNEL=1; below its 128 KiB threshold the
// reduction stays on the host.

const (
	crayMPICH       = "Cray MPICH 8.1.31 osu_allreduce, Frontier"
	crayMPICHSource = "ggracelii/mpich-rccl frontier/results_sweep/N1_job4934625/D_cray_gpuaware.txt (commit 3d289329), cray-mpich/8.1.31, OSU 7.5 -d rocm, MPI_INT, 8 ranks on one node, avg latency of 50 iterations"
)

// crayKernelGap is what the model lacks for Cray MPICH's GPU allreduce
// from its kernel threshold on.
const crayKernelGap = "Cray's GPU allreduce kernel is closed source: the model runs MPICH's Rabenseifner between IPC-mapped device buffers, a reduction kernel per step, one 8 MiB block after another, and is 2.2x too fast from 256 KiB to 1 GiB; both the measured fixed cost (about 108 us, the model's about 50) and slope (64 us per MiB, the model's 29) are about twice the model's, so what the kernel moves per block and how the ranks synchronise is missing, not a bandwidth (docs/model.md \"MPI collectives\"; issue 22)"

// crayHostGap is the host path below the kernel threshold.
const crayHostGap = "below MPICH_GPU_ALLREDUCE_KERNEL_THRESHOLD the model stages through the host and runs the SMP-aware reduce + bcast on the CPU, 36% too fast at 64 KiB: Cray's host-path costs (its staging copies and shared-memory collective) are not known (docs/model.md \"MPI collectives\"; issue 22)"

var crayMPICHPoints = []checkPoint{
	crayAllreduce(64<<10, 76.50, crayHostGap),
	crayAllreduce(256<<10, 121.03, crayKernelGap),
	crayAllreduce(1<<20, 158.06, crayKernelGap),
	crayAllreduce(16<<20, 1029.35, crayKernelGap),
	crayAllreduce(1<<30, 66463.30, crayKernelGap),
}

// crayAllreduce is the sweep's osu_allreduce at bytes (us), ranks on GCDs
// 0-7 in order (assumed: the run's binding is not recorded).
func crayAllreduce(bytes int64, us float64, gap string) checkPoint {
	return checkPoint{experiment: crayMPICH, name: fmt.Sprintf("osu_allreduce %s, 1 node x 8 GCDs", sizeName(bytes)), source: crayMPICHSource,
		run:       checkRun{osu: "osu_allreduce", gcds: span(8), nodes: 1, bytes: bytes, allreduceKernel: true},
		published: us, tolerance: 0.20, unit: "us", gap: gap}
}
