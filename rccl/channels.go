package rccl

import "fmt"

// RCCL's channel limits (src/include/device.h) and defaults.
const (
	maxChannelsAll = 128 // MAXCHANNELS
	// maxChannelsGfx90a is 2 x CHANNEL_LIMIT, the most channels a
	// communicator on gfx90a (MI200) GPUs runs.
	maxChannelsGfx90a  = 32
	defaultMinChannels = 2 // RCCL's NCCL_MIN_NCHANNELS when unset
	// copiesGfx90a is how many copies of its rings a single-node
	// communicator on gfx90a GPUs asks for ("nc").
	copiesGfx90a = 4
	unset        = -2 // what RCCL reads an unset integer variable as
)

// Options holds the RCCL environment variables that shape channels. A nil
// field, or -2 (what RCCL takes for "not set"), leaves RCCL's default.
type Options struct {
	MinChannels *int // NCCL_MIN_NCHANNELS
	MaxChannels *int // NCCL_MAX_NCHANNELS
}

// name is the architecture as the notes call it.
func (g GPU) name() string {
	if g.GFX942 {
		return "gfx942"
	}
	return "gfx90a"
}

// unroll is the 16-byte loads each thread of a collective keeps in flight
// (enqueue.cc getUnrollFactor): 2 on gfx94x devices of more than 80 CUs,
// else gfx90a's, the config's rccl.unroll.
func (g GPU) unroll(gfx90a int) int {
	if g.GFX942 && g.CUs > 80 {
		return 2
	}
	return gfx90a
}

// maxChannels is the most channels a single-node communicator runs
// (ncclTopoPostset): 2 x CHANNEL_LIMIT on gfx90a; on gfx94x MAXCHANNELS,
// or the CU count of a device of 20, 38 or 80 CUs (partitions).
func (g GPU) maxChannels() int {
	switch {
	case !g.GFX942:
		return maxChannelsGfx90a
	case g.CUs == 20 || g.CUs == 38 || g.CUs == 80:
		return g.CUs
	}
	return maxChannelsAll
}

// copies is how many copies of its rings a single-node communicator of
// ranks asks for (init.cc's nc): 4 on gfx90a; on gfx94x 16 for 2 ranks, 4
// for 4 and RCCL's default 2 otherwise; 1 when the rings are more than
// RCCL duplicates.
func (g GPU) copies(ranks, rings int) int {
	switch {
	case g.GFX942 && ranks == 2:
		return 16
	case g.GFX942 && ranks == 4:
		return 4
	case rings > maxChannelsAll/2:
		return 1
	case g.GFX942:
		return 2
	}
	return copiesGfx90a
}

// Channels lays the rings out over RCCL's channels for a communicator on
// one node: channel c runs ring out[c]. RCCL doubles the rings, then
// copies them until there are as many copies in all as the GPU asks for
// (gfx90a: 4, so 4 rings give 16 channels; 8 gfx942 devices: 2), within
// the GPU's channel limit; NCCL_MAX_NCHANNELS keeps only the first
// channels and NCCL_MIN_NCHANNELS copies them again up to its count. The
// notes say which settings RCCL overrode, as its warnings do.
func Channels(gpu GPU, rings []Ring, opts Options) (out []Ring, notes []string) {
	n := len(rings)
	if n == 0 {
		return nil, nil
	}
	minCh, maxCh := minChannels(opts, &notes), maxChannels(opts, &notes)
	limit := gpu.maxChannels()
	nc := min(min(maxCh, limit)/n, gpu.copies(len(rings[0].Ranks), n)) * n
	slots := append([]Ring(nil), rings...)
	if n <= limit/2 {
		slots = append(slots, rings...)
	}
	count := min(len(slots), limit)

	if len(rings[0].Ranks) < 8 && minCh > 64 {
		notes = append(notes, fmt.Sprintf("NCCL_MIN_NCHANNELS=%d ignored: above 64 with fewer than 8 GPUs, 2 used", minCh))
		minCh = defaultMinChannels
	}
	if minCh > limit {
		notes = append(notes, fmt.Sprintf("NCCL_MIN_NCHANNELS=%d ignored: above the %d channels %s allows, 2 used", minCh, limit, gpu.name()))
		minCh = defaultMinChannels
	}
	// The maximum first keeps the first channels, then the minimum (or the
	// copies asked for) repeats them in order; the default limit on thread
	// blocks (MAXCHANNELS) never binds here.
	count = min(maxCh, count)
	want := max(minCh, nc, 1)
	for c := count; c < want; c++ {
		slots = append(slots[:c], slots[c-count])
	}
	return slots[:max(count, want)], notes
}

// minChannels is NCCL_MIN_NCHANNELS as RCCL takes it.
func minChannels(opts Options, notes *[]string) int {
	v := defaultMinChannels
	if opts.MinChannels != nil && *opts.MinChannels != unset {
		v = *opts.MinChannels
	}
	if v > maxChannelsAll {
		*notes = append(*notes, fmt.Sprintf("NCCL_MIN_NCHANNELS=%d above %d: %d used", v, maxChannelsAll, maxChannelsAll))
		v = maxChannelsAll
	}
	return max(v, 0)
}

// maxChannels is NCCL_MAX_NCHANNELS as RCCL takes it.
func maxChannels(opts Options, notes *[]string) int {
	v := maxChannelsAll
	if opts.MaxChannels != nil && *opts.MaxChannels != unset {
		v = *opts.MaxChannels
	}
	if v < 1 {
		*notes = append(*notes, fmt.Sprintf("NCCL_MAX_NCHANNELS=%d below 1: 1 used", v))
		v = 1
	}
	return min(v, maxChannelsAll)
}
