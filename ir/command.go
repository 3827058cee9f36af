// Package ir is what the HIP runtime executes: a trace's calls as a user
// writes them (package trace, the file format), plus what a library adds
// when it lowers its own calls (packages mpi and rccl): phased kernels,
// RDMA copies on a NIC, and the GPU flags their protocols count. A trace
// cannot write these fields; only a library's lowering sets them.
package ir

import "github.com/akisim/akisim/trace"

// Call is a trace operation, as the file format has it.
type Call = trace.Op

// Command is one operation the runtime executes: a Call and its lowering.
type Command struct {
	Call

	// A library's kernel (package rccl).
	Channels  [][]Phase // a phased kernel (phase.go): per channel, its phases
	StopEvent bool      // launched with a stop event (hipExtLaunchKernel): ends with a system-scope release

	// A library's RDMA copy (package mpi and rccl, between nodes): a
	// memcpy_async run by a NIC's DMA engine. WaitFlag holds it in its
	// stream until the flag is set (the NIC acts on a header that arrived,
	// with no host help); SetFlag is set when it completes; LandFlag is
	// set by the receiving NIC (RecvNIC): its completion event, once all
	// the data has gone through it, reaching its host.
	NIC      *int // global NIC id
	RecvNIC  *int
	LandFlag string
	Inline   bool // the data came in the command (the CPU copied it in): no DMA read

	// CopyGCD, for a library's peer copy, is the GCD whose agent names both
	// ends of it: a rank whose ROCr sees only its own GCD copies an IPC
	// message with it (package mpi). ROCr then runs the copy there, as a
	// blit kernel from HSA_FORCE_SDMA_SIZE, on a host-facing SDMA engine
	// below (GetBlitObject); nil: the peer copy's usual engine.
	CopyGCD *int
	// HSA: a library's copy made with hsa_amd_memory_async_copy (the Cray
	// GTL's IPC copies), not through HIP, so ROCclr's choice of a blit
	// kernel for small peer copies does not apply.
	HSA bool

	// GPU flags (the counters kernels poll) an RDMA copy raises by one: at
	// its completion (SetGPUFlag), when the receiving NIC reports it
	// (LandGPUFlag). A flag_wait with GPUCount waits, polling, until GPU
	// flag Flag counts that many stores (a library's proxy thread).
	SetGPUFlag  string
	LandGPUFlag string
	GPUCount    int
}

// FromTrace is a trace's operations as commands, with nothing lowered.
func FromTrace(ops []trace.Op) []Command {
	cmds := make([]Command, len(ops))
	for i := range ops {
		cmds[i].Call = ops[i]
	}
	return cmds
}

// LineOf is command i's trace line, as trace.LineOf gives an op's.
func LineOf(cmds []Command, i int) int {
	if cmds[i].Line > 0 {
		return cmds[i].Line
	}
	return i + 1
}
