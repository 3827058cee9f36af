package trace

import (
	"encoding/binary"
	"math"
	"unsafe"
)

// Packed holds operations in order in a few bytes each, for a replay that
// reads them once, first to last: an Op is 448 bytes whatever its kind,
// and a long trace waiting its turn is mostly device syncs, waits and
// kernels that set a handful of fields. Each op is a mask of the fields it
// sets, then their values: integers as varints, strings by their index in
// a table of the distinct ones, access lists and GCD lists by reference
// (a workload's kernels often share one). Blocks behind the reader go.
type Packed struct {
	blocks [][]byte
	n      int // ops appended

	strs   []string
	strAt  map[string]uint32
	seen   [256]seenStr // the strings str found last, by address
	access lists[Access]
	gcds   lists[int]

	block, off int // the reader's place
	read       int // ops read
}

// packedBlock is the bytes of a block: ops never straddle two.
const packedBlock = 64 << 10

// The fields of an op by type, each with its bit in an op's mask. An op
// holds its mask, its kind, then the values of the fields it sets, table
// by table, in the tables' order.
var (
	packedStrings = []func(*Op) *string{
		func(o *Op) *string { return &o.Buf }, func(o *Op) *string { return &o.Src },
		func(o *Op) *string { return &o.Dst }, func(o *Op) *string { return &o.Event },
		func(o *Op) *string { return &o.Label }, func(o *Op) *string { return &o.Value },
		func(o *Op) *string { return &o.Name }, func(o *Op) *string { return &o.WaitFlag },
		func(o *Op) *string { return &o.SetFlag }, func(o *Op) *string { return &o.Flag },
		func(o *Op) *string { return &o.Advice }, func(o *Op) *string { return &o.Req },
		func(o *Op) *string { return &o.Comm }, func(o *Op) *string { return &o.Datatype },
		func(o *Op) *string { return &o.RedOp },
	}
	packedInt64s = []func(*Op) *int64{
		func(o *Op) *int64 { return &o.Bytes }, func(o *Op) *int64 { return &o.SrcOff },
		func(o *Op) *int64 { return &o.DstOff }, func(o *Op) *int64 { return &o.Grid },
		func(o *Op) *int64 { return &o.InFlight },
	}
	packedInts = []func(*Op) *int{
		func(o *Op) *int { return &o.Stream }, func(o *Op) *int { return &o.Rank },
		func(o *Op) *int { return &o.Threads }, func(o *Op) *int { return &o.Workgroup },
		func(o *Op) *int { return &o.Tag }, func(o *Op) *int { return &o.Line },
	}
	packedPointers = []func(*Op) **int{
		func(o *Op) **int { return &o.GCD }, func(o *Op) **int { return &o.NUMA },
		func(o *Op) **int { return &o.Peer }, func(o *Op) **int { return &o.Root },
	}
	packedFloats = []func(*Op) *float64{
		func(o *Op) *float64 { return &o.ComputeNs }, func(o *Op) *float64 { return &o.DurationNs },
	}
	packedBools = []func(*Op) *bool{
		func(o *Op) *bool { return &o.Fine }, func(o *Op) *bool { return &o.NonCoherent },
	}
)

// Len is the number of ops appended.
func (p *Packed) Len() int { return p.n }

// Append adds o after the ops appended so far.
func (p *Packed) Append(o *Op) {
	var tmp [256]byte
	var mask uint64
	b := tmp[:0]
	bit := uint64(1) // the next field's
	for _, f := range packedStrings {
		if v := *f(o); v != "" {
			mask |= bit
			b = binary.AppendUvarint(b, uint64(p.str(v)))
		}
		bit <<= 1
	}
	for _, f := range packedInt64s {
		if v := *f(o); v != 0 {
			mask |= bit
			b = binary.AppendVarint(b, v)
		}
		bit <<= 1
	}
	for _, f := range packedInts {
		if v := *f(o); v != 0 {
			mask |= bit
			b = binary.AppendVarint(b, int64(v))
		}
		bit <<= 1
	}
	for _, f := range packedPointers {
		if v := *f(o); v != nil {
			mask |= bit
			b = binary.AppendVarint(b, int64(*v))
		}
		bit <<= 1
	}
	for _, f := range packedFloats {
		if v := *f(o); v != 0 {
			mask |= bit
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
		bit <<= 1
	}
	for _, f := range packedBools {
		if *f(o) {
			mask |= bit
		}
		bit <<= 1
	}
	if o.Access != nil {
		mask |= bit
		b = binary.AppendUvarint(b, uint64(p.access.index(o.Access, p.n)))
	}
	if bit <<= 1; o.GCDs != nil {
		mask |= bit
		b = binary.AppendUvarint(b, uint64(p.gcds.index(o.GCDs, p.n)))
	}

	var h [2 * binary.MaxVarintLen64]byte
	head := binary.AppendUvarint(binary.AppendUvarint(h[:0], mask), uint64(p.str(string(o.Op))))
	if k := len(p.blocks) - 1; k < 0 || len(p.blocks[k])+len(head)+len(b) > cap(p.blocks[k]) {
		p.blocks = append(p.blocks, make([]byte, 0, max(packedBlock, len(head)+len(b))))
	}
	k := len(p.blocks) - 1
	p.blocks[k] = append(append(p.blocks[k], head...), b...)
	p.n++
}

// str is s's index in the table, added if new. A string seen by its
// bytes' address (the same string handed on) skips the map.
func (p *Packed) str(s string) uint32 {
	if s == "" {
		return p.strIndex(s)
	}
	ptr := unsafe.StringData(s)
	c := &p.seen[uintptr(unsafe.Pointer(ptr))>>4%uintptr(len(p.seen))]
	if c.ptr == ptr && c.n == len(s) {
		return c.i
	}
	i := p.strIndex(s)
	*c = seenStr{ptr, len(s), i}
	return i
}

// strIndex is s's index in the table, added if new.
func (p *Packed) strIndex(s string) uint32 {
	if p.strAt == nil {
		p.strAt = map[string]uint32{}
	}
	i, ok := p.strAt[s]
	if !ok {
		i = uint32(len(p.strs))
		p.strs = append(p.strs, s)
		p.strAt[s] = i
	}
	return i
}

// seenStr is a string str found, by its bytes' address and length.
type seenStr struct {
	ptr *byte
	n   int
	i   uint32
}

// lists holds slices an op refers to, by index: ops that share one
// (the same array and length) share its index.
type lists[T any] struct {
	tab  [][]T
	at   map[*T]uint32
	last []int32 // by slice: the last op that names it
}

// index is s's index, named by op n.
func (l *lists[T]) index(s []T, n int) uint32 {
	if l.at == nil {
		l.at = map[*T]uint32{}
	}
	key := (*T)(nil)
	if cap(s) > 0 {
		key = &s[:1][0]
	}
	i, ok := l.at[key]
	if !ok || len(l.tab[i]) != len(s) {
		i = uint32(len(l.tab))
		l.tab = append(l.tab, s)
		l.last = append(l.last, 0)
		l.at[key] = i
	}
	l.last[i] = int32(n)
	return i
}

// take is slice i for op n, dropped if no later op names it.
func (l *lists[T]) take(i uint64, n int) []T {
	s := l.tab[i]
	if int(l.last[i]) == n {
		l.tab[i] = nil
	}
	return s
}

// Next sets *o to the next op and says whether there was one. The tables
// for appending are dropped at the first read: a Packed is filled, then
// read.
func (p *Packed) Next(o *Op) bool {
	if p.read == p.n {
		return false
	}
	p.strAt, p.access.at, p.gcds.at = nil, nil, nil
	if p.off == len(p.blocks[p.block]) {
		p.blocks[p.block] = nil
		p.block, p.off = p.block+1, 0
	}
	b := p.blocks[p.block][p.off:]
	at := 0
	uv := func() uint64 {
		v, n := binary.Uvarint(b[at:])
		at += n
		return v
	}
	v := func() int64 {
		v, n := binary.Varint(b[at:])
		at += n
		return v
	}
	mask := uv()
	*o = Op{Op: Kind(p.strs[uv()])}
	bit := uint64(1)
	on := func() bool { // the next bit is set
		set := mask&bit != 0
		bit <<= 1
		return set
	}
	for _, f := range packedStrings {
		if on() {
			*f(o) = p.strs[uv()]
		}
	}
	for _, f := range packedInt64s {
		if on() {
			*f(o) = v()
		}
	}
	for _, f := range packedInts {
		if on() {
			*f(o) = int(v())
		}
	}
	for _, f := range packedPointers {
		if on() {
			x := int(v())
			*f(o) = &x
		}
	}
	for _, f := range packedFloats {
		if on() {
			*f(o) = math.Float64frombits(binary.LittleEndian.Uint64(b[at:]))
			at += 8
		}
	}
	for _, f := range packedBools {
		*f(o) = on()
	}
	if on() {
		o.Access = p.access.take(uv(), p.read)
	}
	if on() {
		o.GCDs = p.gcds.take(uv(), p.read)
	}
	p.off += at
	p.read++
	return true
}
