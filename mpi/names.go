package mpi

import "strconv"

// name builds one of the library's names (a flag, buffer, request or
// event) in a buffer on the stack, so that the name is the one
// allocation: these are made for nearly every call a trace makes. The
// text is what fmt's %s and %d would print.
type name []byte

// newName starts a name with the library's prefix, in buf.
func newName(buf *[64]byte, prefix string) name { return append(buf[:0], prefix...) }

// s appends a string.
func (n name) s(v string) name { return append(n, v...) }

// d appends an integer in decimal.
func (n name) d(v int) name { return strconv.AppendInt(n, int64(v), 10) }

// c appends a byte.
func (n name) c(v byte) name { return append(n, v) }

func (n name) String() string { return string(n) }
