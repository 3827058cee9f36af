package mall

import (
	"github.com/akisim/akisim/components/fabric"
	"github.com/sarchlab/akita/v3/sim"
)

// Policy is what the MALL holds. Reads always allocate; a memory-side
// cache sees every access to its memory, so nothing must bypass it for
// coherence.
type Policy struct {
	// WriteAllocate: a write takes lines for the bytes it writes (else a
	// write only updates the lines it finds and goes on to memory).
	WriteAllocate bool
	// WriteBack: the cache holds dirty lines, acknowledges the writes it
	// takes and writes them to memory when they are evicted (else every
	// write goes on to memory and the lines it holds stay clean).
	WriteBack bool
}

// Builder builds MALLs.
type Builder struct {
	engine      sim.Engine
	bytes       int64
	ways        int
	line, block int64
	channels    int
	channelGBps float64
	latencyNs   float64
	policy      Policy
	memory      fabric.Memory
	shared      *fabric.Server // nil: the cache's own channels
}

// MakeBuilder returns a builder with no values: node gives each from the
// config (mall.*), and Build refuses one without them.
func MakeBuilder() Builder { return Builder{} }

// WithEngine sets the simulation engine.
func (b Builder) WithEngine(e sim.Engine) Builder { b.engine = e; return b }

// WithCapacity sets the bytes the cache holds and its associativity.
func (b Builder) WithCapacity(bytes int64, ways int) Builder {
	b.bytes, b.ways = bytes, ways
	return b
}

// WithLine sets the bytes of a line (what residency is tracked in) and of
// a replacement block (the simulation's granularity: a block of lines is
// brought in and evicted as one).
func (b Builder) WithLine(line, block int64) Builder {
	b.line, b.block = line, block
	return b
}

// WithChannels sets the channel count and each channel's bandwidth (GB/s).
func (b Builder) WithChannels(n int, gbps float64) Builder {
	b.channels, b.channelGBps = n, gbps
	return b
}

// WithLatency sets the hit latency (ns); a miss pays it on its way to memory.
func (b Builder) WithLatency(ns float64) Builder { b.latencyNs = ns; return b }

// WithPolicy sets what the cache holds.
func (b Builder) WithPolicy(p Policy) Builder { b.policy = p; return b }

// WithMemory names the memory the cache is in front of (its write-backs
// target it).
func (b Builder) WithMemory(m fabric.Memory) Builder { b.memory = m; return b }

// WithSharedBandwidth has the cache book its channels' transfers on s,
// shared with the other caches given s (the devices of one memory
// partition sharing its slices' channels); s's rate replaces the
// channels'. nil: its own.
func (b Builder) WithSharedBandwidth(s *fabric.Server) Builder { b.shared = s; return b }

// Bandwidth is the channels' peak together (GB/s).
func (b Builder) Bandwidth() float64 { return float64(b.channels) * b.channelGBps }

// Build makes the MALL. Its capacity must be a whole number of sets of
// ways blocks (the config's validation makes sure).
func (b Builder) Build(name string) *MALL {
	fabric.Require("mall.Builder", fabric.Need{What: "WithCapacity (mall.bytes)", Given: b.bytes > 0},
		fabric.Need{What: "WithCapacity (mall.ways)", Given: b.ways > 0},
		fabric.Need{What: "WithLine (mall.line_bytes)", Given: b.line > 0},
		fabric.Need{What: "WithLine (sim.l2_block_bytes)", Given: b.block > 0},
		fabric.Need{What: "WithChannels (mall.channels)", Given: b.channels > 0 || b.shared != nil},
		fabric.Need{What: "WithChannels (mall.channel_bandwidth_gbps)", Given: b.channelGBps > 0 || b.shared != nil})
	cal := fabric.NewCalendar(b.engine)
	blocks := int(b.bytes / b.block)
	m := &MALL{ComponentBase: sim.NewComponentBase(name), engine: cal, memory: b.memory, policy: b.policy,
		line: b.line, block: b.block, latency: fabric.Ns(b.latencyNs),
		bw:    b.shared,
		store: newStore(blocks/max(1, b.ways), b.ways, int(b.block/b.line)), fills: map[*fabric.Packet]fill{}}
	if m.bw == nil {
		m.bw = &fabric.Server{BytesPerSec: fabric.GBps(b.Bandwidth())}
	}
	m.TopPort, m.top = m.NewPort(cal, m, 4096, name, "Top")
	m.BottomPort, m.bottom = m.NewPort(cal, m, 4096, name, "Bottom")
	return m
}
