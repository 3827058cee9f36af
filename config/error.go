package config

import (
	"strconv"
	"strings"
)

// Error is every error Load, Parse and Validate return. Its Error() is one
// line:
//
//	FILE:LINE: KEY: what is wrong     (value from the TOML file)
//	FILE: KEY: what is wrong          (line unknown, e.g. a missing table)
//	-set KEY=VALUE: what is wrong     (value from a -set override)
//	-env NAME=VALUE: what is wrong    (an override another flag made, as typed)
//	-set A=1 and -set A=2: both set A; give one
//	KEY: what is wrong                (Validate on a Node built in Go)
type Error struct {
	File string // config file; "" when the value came from a -set or from Go
	Line int    // 1-based line in File; 0 when unknown
	Set  string // the offending "KEY=VALUE" override, "" when none
	Flag string // how the user gave Set when not as -set Set (-env X=1, -procs 64)
	Also string // an earlier override, as typed, that wrote the same value as Set
	Key  string // dotted key path, e.g. "xgmi.bundle[3].lanes"; may be ""
	Msg  string // what is wrong
	Err  error  // underlying error (e.g. from os.ReadFile), may be nil
}

func (e *Error) Error() string {
	var b strings.Builder
	switch {
	case e.Set != "":
		if e.Also != "" {
			b.WriteString(e.Also)
			b.WriteString(" and ")
		}
		name := e.Flag
		if name == "" {
			name = "-set " + e.Set
		}
		b.WriteString(name)
		b.WriteString(": ")
		// "-set gcd.count=0: must be ..." already names the key, and so
		// does "-env X=0"; "-procs 64" made network.nodes and does not.
		named := strings.HasPrefix(e.Set, e.Key+"=") && (e.Flag == "" || strings.Contains(e.Flag, lastPart(e.Key)))
		if e.Key != "" && !named && e.Also == "" {
			b.WriteString(e.Key)
			b.WriteString(": ")
		}
	default:
		if e.File != "" {
			b.WriteString(e.File)
			if e.Line > 0 {
				b.WriteString(":")
				b.WriteString(strconv.Itoa(e.Line))
			}
			b.WriteString(": ")
		}
		if e.Key != "" {
			b.WriteString(e.Key)
			b.WriteString(": ")
		}
	}
	b.WriteString(e.Msg)
	return oneLine(b.String())
}

// lastPart is a key path's last component: "env.NCCL_PROTO" -> "NCCL_PROTO".
func lastPart(key string) string {
	p := parentKey(key)
	if p == "" {
		return key
	}
	return strings.TrimPrefix(key[len(p):], ".")
}

// Unwrap returns the underlying error, if any.
func (e *Error) Unwrap() error { return e.Err }

// oneLine folds s to a single line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
