package mpi

import "github.com/akisim/akisim/trace"

// side is one half of a message a call makes: the send or the receive
// (an mpi_sendrecv makes one of each).
type side struct {
	op   int  // the call
	send bool // the sending half
}

// message is one matched send and receive.
type message struct {
	n          int // its place among the messages: its flags are named after it
	send, recv side
	bytes      int64
	ipc        bool
	cpuCopy    bool // an IPC message the receiver's CPU copies (at most GTL_HSA_VSMSG_CUTOFF_SIZE bytes)
	net        bool // between nodes (net.go)
	// flags are its flags' names, made when first named: the sender and
	// the receiver name the same ones
	flags [len(flagWhat)]string
	ends  [2]end // the send's and the receive's buffer, read when their calls may have gone (Commands)
	done  uint8  // its halves finished (a half starts before it finishes)
}

// finished notes that a half of m finished; after the second, nothing
// reads its names again, and they go (a large run's messages are many).
func (m *message) finished() {
	if m.done++; m.done == 2 {
		m.flags, m.ends[0].buf, m.ends[1].buf = [len(flagWhat)]string{}, "", ""
	}
}

// end is one half's buffer, its offset there and its rank.
type end struct {
	buf  string
	off  int64
	rank int
}

// end is side sd's half of m.
func (m *message) end(sd side) *end {
	if sd.send {
		return &m.ends[0]
	}
	return &m.ends[1]
}

// halves of a call, as sides finds them: what each call makes is noted
// once, so that a call's sides are known after it went (Commands).
const (
	sendHalf = 1 << iota
	recvHalf
)

// noteHalves notes the halves each call makes.
func (x *expander) noteHalves() {
	x.halfKinds = make([]uint8, len(x.ops))
	for i, o := range x.ops {
		x.halfKinds[i] = halvesOf(o)
	}
}

// halvesOf is the halves call o makes.
func halvesOf(o *trace.Op) uint8 {
	switch {
	case o.Op == trace.MPISendrecv:
		return sendHalf | recvHalf
	case o.IsMPI() && o.Op != trace.MPIWait && o.Op != trace.MPIWaitall && o.IsSend():
		return sendHalf
	case o.IsMPI() && o.Op != trace.MPIWait && o.Op != trace.MPIWaitall:
		return recvHalf
	}
	return 0
}

// A message's flags.
const (
	rts    = iota // the sender's data (or header) is ready
	fin           // the receiver is done with the sender's buffer
	landed        // the data arrived through the receiving NIC (net.go)
)

var flagWhat = [...]string{rts: "rts", fin: "fin", landed: "landed"}

// flag names flag k of message m: the prefix, its number, "." and what
// the flag says (as "%s%d.%s" would print them).
func (x *expander) flag(m *message, k int) string {
	if m.flags[k] == "" {
		var b [64]byte
		m.flags[k] = newName(&b, x.prefix).d(m.n).c('.').s(flagWhat[k]).String()
	}
	return m.flags[k]
}

// sides are the halves of messages call i makes: the first n of s.
func (x *expander) sides(i int) (s [2]side, n int) {
	switch x.halfKinds[i] {
	case sendHalf | recvHalf:
		return [2]side{{i, true}, {i, false}}, 2
	case sendHalf:
		return [2]side{{i, true}}, 1
	case recvHalf:
		return [2]side{{i, false}}, 1
	}
	return s, 0
}

// message is the message side sd is a half of.
func (x *expander) message(sd side) *message {
	return &x.msgs[x.bySide[halfIndex(sd)]-1]
}

// halfIndex is where side sd is in bySide.
func halfIndex(sd side) int {
	if sd.send {
		return 2*sd.op + 1
	}
	return 2 * sd.op
}

// match pairs sends and receives, by trace.Matcher as Check did.
func (x *expander) match() {
	halves := 0
	for i := range x.ops {
		_, n := x.sides(i)
		halves += n
	}
	x.msgs = make([]message, 0, halves/2) // made at their size: there are as many as calls in large traces
	m := newMatching()
	for i, o := range x.ops {
		x.matchCall(m, i, o)
	}
}

// matching is the halves match has seen and not yet paired: the
// queues, and each waiting half's end (its call may have gone).
type matching struct {
	queues trace.Matcher
	ends   map[int]end // by halfIndex
}

func newMatching() *matching { return &matching{queues: trace.Matcher{}, ends: map[int]end{}} }

// matchCall pairs the halves call i (o) makes with the oldest waiting
// opposite halves, making a message of each pair.
func (x *expander) matchCall(mt *matching, i int, o *trace.Op) {
	sds, n := x.sides(i)
	for _, sd := range sds[:n] {
		k := trace.MessageKey(o, sd.send)
		q, ok := mt.queues.Add(k, trace.Half{Op: i, Send: sd.send})
		if !ok {
			mt.ends[halfIndex(sd)] = endOf(o, sd)
			continue
		}
		other := side{q.Op, q.Send}
		m := message{n: len(x.msgs), send: other, recv: sd, bytes: o.Bytes}
		mine, theirs := endOf(o, sd), mt.ends[halfIndex(other)]
		delete(mt.ends, halfIndex(other))
		m.ends = [2]end{theirs, mine}
		if sd.send {
			m.send, m.recv = sd, other
			m.ends = [2]end{mine, theirs}
		}
		m.net = x.node(m.ends[0].buf) != x.node(m.ends[1].buf)
		m.ipc = !m.net && x.p.IPC && m.bytes >= x.p.IPCThreshold
		m.cpuCopy = m.ipc && m.bytes <= x.p.VSMsgCutoff
		if !m.ipc && !m.net {
			pair := [2]int{k[0], k[1]}
			x.eager[pair] = max(x.eager[pair], m.bytes)
		}
		x.msgs = append(x.msgs, m)
		x.bySide[halfIndex(m.send)], x.bySide[halfIndex(m.recv)] = int32(len(x.msgs)), int32(len(x.msgs))
	}
}
