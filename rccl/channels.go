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

// Channels lays the rings out over RCCL's channels for a communicator on
// one node of gfx90a GPUs: channel c runs ring out[c]. RCCL doubles the
// rings, then copies them until there are 4 copies in all (one node: 4
// rings, 16 channels); NCCL_MAX_NCHANNELS keeps only the first channels and
// NCCL_MIN_NCHANNELS copies them again up to its count. The notes say
// which settings RCCL overrode, as its warnings do.
func Channels(rings []Ring, opts Options) (out []Ring, notes []string) {
	n := len(rings)
	if n == 0 {
		return nil, nil
	}
	minCh, maxCh := minChannels(opts, &notes), maxChannels(opts, &notes)

	// Every rank of a single-node communicator asks for 4 copies, one when
	// the rings are more than RCCL duplicates.
	nc := copiesGfx90a
	if n > maxChannelsAll/2 {
		nc = 1
	}
	nc = min(min(maxCh, maxChannelsGfx90a)/n, nc) * n
	slots := append([]Ring(nil), rings...)
	if n <= maxChannelsGfx90a/2 {
		slots = append(slots, rings...)
	}
	count := min(len(slots), maxChannelsGfx90a)

	if len(rings[0].Ranks) < 8 && minCh > 64 {
		notes = append(notes, fmt.Sprintf("NCCL_MIN_NCHANNELS=%d ignored: above 64 with fewer than 8 GPUs, 2 used", minCh))
		minCh = defaultMinChannels
	}
	if minCh > maxChannelsGfx90a {
		notes = append(notes, fmt.Sprintf("NCCL_MIN_NCHANNELS=%d ignored: above the %d channels gfx90a allows, 2 used", minCh, maxChannelsGfx90a))
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
