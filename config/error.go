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
//	KEY: what is wrong                (Validate on a Node built in Go)
type Error struct {
	File string // config file; "" when the value came from a -set or from Go
	Line int    // 1-based line in File; 0 when unknown
	Set  string // the offending "KEY=VALUE" override, "" when none
	Key  string // dotted key path, e.g. "xgmi.bundle[3].lanes"; may be ""
	Msg  string // what is wrong
	Err  error  // underlying error (e.g. from os.ReadFile), may be nil
}

func (e *Error) Error() string {
	var b strings.Builder
	switch {
	case e.Set != "":
		b.WriteString("-set ")
		b.WriteString(e.Set)
		b.WriteString(": ")
		// "-set gcd.count=0: must be ..." already names the key.
		if e.Key != "" && !strings.HasPrefix(e.Set, e.Key+"=") {
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

// Unwrap returns the underlying error, if any.
func (e *Error) Unwrap() error { return e.Err }

// oneLine folds s to a single line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
