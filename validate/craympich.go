package validate

import "fmt"

// Cray MPICH 8.1.31's osu_allreduce on device buffers, one Frontier node of
// 8 GCDs: a published sweep no constant was fitted to (docs/validation.md,
// "C"). The points run on that release's defaults (stack.cray_mpich
// 8.1.31): its GPU allreduce kernel, below whose 128 KiB threshold the
// reduction stays on the host.

const (
	crayMPICH       = "Cray MPICH 8.1.31 osu_allreduce, Frontier"
	crayMPICHSource = "ggracelii/mpich-rccl frontier/results_sweep/N1_job4934625/D_cray_gpuaware.txt (commit 3d289329), cray-mpich/8.1.31, OSU 7.5 -d rocm, MPI_INT, 8 ranks on one node, avg latency of 50 iterations"
)

// crayKernelGap is what the model lacks at the kernel threshold's first
// sizes.
const crayKernelGap = "Cray's GPU allreduce kernel is closed source: the model runs MPICH's Rabenseifner between IPC-mapped device buffers with a reduction kernel per step, and at 256 KiB (two blocks of a 7-step algorithm, each step a kernel launch and a wait) is 23.5% slow: 149 us against 121; its per-step launch and synchronisation cost is what Cray's single kernel per block does not pay (docs/model.md \"MPI collectives\")"

var crayMPICHPoints = []checkPoint{
	crayAllreduce(8, 2.56, ""),
	crayAllreduce(1<<10, 12.16, ""),
	crayAllreduce(8<<10, 42.70, ""),
	crayAllreduce(64<<10, 76.50, ""),
	crayAllreduce(256<<10, 121.03, crayKernelGap),
	crayAllreduce(1<<20, 158.06, ""),
	crayAllreduce(16<<20, 1029.35, ""),
	crayAllreduce(1<<30, 66463.30, ""),
}

// crayAllreduce is the sweep's osu_allreduce at bytes (us), ranks on GCDs
// 0-7 in order, every GCD visible to each. The run's script
// (frontier/run/run_allreduce.sbatch) binds with srun --gpus-per-node=8
// --gpu-bind=closest -c7: one GCD per rank, which it alone sees. Run so
// (mpi.visible_gcds "own", GCDs 4 5 2 3 6 7 0 1), the model's kernel path
// pulls its 1-4 MiB IPC copies with blit kernels that take about 54 us
// each, whatever their size, and 16 MiB leaves its band (+33%); why is not
// known, so the points keep the assumed binding.
func crayAllreduce(bytes int64, us float64, gap string) checkPoint {
	return checkPoint{experiment: crayMPICH, name: fmt.Sprintf("osu_allreduce %s, 1 node x 8 GCDs", sizeName(bytes)), source: crayMPICHSource,
		run:       checkRun{osu: "osu_allreduce", gcds: span(8), nodes: 1, bytes: bytes, crayMPICH: "8.1.31"},
		published: us, tolerance: 0.20, unit: "us", gap: gap}
}
