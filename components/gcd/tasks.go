package gcd

import (
	"fmt"

	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// Tasks for Akita's tracers (Daisen), reported only while one is hooked
// to the compute units: a kernel, at the compute units; under it each
// CU's share of its workgroups (a phased kernel: each channel's
// workgroup, then its phases), at that CU; under those the CU's steps.
// A step's transactions carry its task, so the links and memories they
// cross report their share under it.

// cuWhere is CU i's location.
func (c *ComputeUnits) cuWhere(i int) string { return fmt.Sprintf("%s[%d]", c.Name(), i) }

// startKernelTask starts kernel k's task, named as the kernel is.
func (c *ComputeUnits) startKernelTask(now sim.VTimeInSec, k *kernelRun) {
	name := k.cmd.Name
	if name == "" {
		name = "kernel"
	}
	k.task = fmt.Sprintf("%s.kernel[%d]", c.Name(), c.Kernels)
	fabric.StartTask(c, k.task, "", "kernel", name, c.Name(), now, 0)
}

// startShareTasks starts the task of each CU's share of kernel k's
// workgroups. A share that stands for several CUs is placed at its first.
func (c *ComputeUnits) startShareTasks(now sim.VTimeInSec, k *kernelRun) {
	for _, cu := range k.cus {
		what := fmt.Sprintf("%d workgroups", cu.workgroups)
		if cu.span > 1 {
			what = fmt.Sprintf("%d workgroups on CUs %d-%d", cu.workgroups, cu.id, cu.id+cu.span-1)
		}
		cu.task = fmt.Sprintf("%s.cu[%d]", k.task, cu.id)
		fabric.StartTask(c, cu.task, k.task, "workgroup", what, c.cuWhere(cu.id), now, 0)
	}
}

// startStepTask starts step s's task under its CU's share's.
func (c *ComputeUnits) startStepTask(now sim.VTimeInSec, s *step) {
	cu := s.cu
	cu.steps++
	s.task = fmt.Sprintf("%s.step[%d]", cu.task, cu.steps)
	fabric.StartTask(c, s.task, cu.task, "step", fmt.Sprintf("step %d B", s.to-s.from), c.cuWhere(cu.id), now, 0)
}

// startChannelTask starts the task of a phased kernel's channel c, the
// workgroup on its CU.
func (c *ComputeUnits) startChannelTask(now sim.VTimeInSec, ch *chanRun, i int) {
	ch.task = fmt.Sprintf("%s.channel[%d]", ch.k.task, i)
	fabric.StartTask(c, ch.task, ch.k.task, "workgroup", fmt.Sprintf("channel %d", i), c.cuWhere(ch.cu), now, 0)
}

// startPhaseTask starts the task of the channel's next phase, once: from
// its first poll of its flags to the acknowledgement of its last write.
func (c *ComputeUnits) startPhaseTask(now sim.VTimeInSec, ch *chanRun) {
	if ch.task == "" || ch.phaseTask != "" {
		return
	}
	ch.phaseTask = fmt.Sprintf("%s.phase[%d]", ch.task, ch.next)
	fabric.StartTask(c, ch.phaseTask, ch.task, "phase", fmt.Sprintf("phase %d of %d", ch.next+1, len(ch.phases)), c.cuWhere(ch.cu), now, 0)
}

// startPreloadTask starts the task of the preloads of the channel's phase n.
func (c *ComputeUnits) startPreloadTask(now sim.VTimeInSec, ch *chanRun, n int, cu *cuState) {
	if ch.task == "" {
		return
	}
	cu.task = fmt.Sprintf("%s.preload[%d]", ch.task, n)
	fabric.StartTask(c, cu.task, ch.task, "phase", fmt.Sprintf("preload of phase %d", n+1), c.cuWhere(ch.cu), now, 0)
}

// endPhaseTask ends the channel's phase task, and the channel's after
// its last phase.
func (c *ComputeUnits) endPhaseTask(now sim.VTimeInSec, ch *chanRun) {
	if ch.phaseTask == "" {
		return
	}
	fabric.EndTask(c, ch.phaseTask, now)
	ch.phaseTask = ""
	if ch.next == len(ch.phases)-1 {
		fabric.EndTask(c, ch.task, now)
	}
}
