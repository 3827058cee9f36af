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
		switch {
		case o.Op == trace.MPISendrecv:
			x.halfKinds[i] = sendHalf | recvHalf
		case o.IsMPI() && o.Op != trace.MPIWait && o.Op != trace.MPIWaitall && o.IsSend():
			x.halfKinds[i] = sendHalf
		case o.IsMPI() && o.Op != trace.MPIWait && o.Op != trace.MPIWaitall:
			x.halfKinds[i] = recvHalf
		}
	}
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
	queues := trace.Matcher{}
	for i := range x.ops {
		sds, n := x.sides(i)
		for _, sd := range sds[:n] {
			o := x.ops[i]
			k := trace.MessageKey(o, sd.send)
			q, ok := queues.Add(k, trace.Half{Op: i, Send: sd.send})
			if !ok {
				continue
			}
			other := side{q.Op, q.Send}
			m := message{n: len(x.msgs), send: other, recv: sd, bytes: o.Bytes}
			if sd.send {
				m.send, m.recv = sd, other
			}
			m.ends = [2]end{x.endOf(m.send), x.endOf(m.recv)}
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
}
