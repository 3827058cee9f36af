// Package usage is bad input: an error the command reports on one line of
// stderr, exiting with status 2.
package usage

import (
	"fmt"
	"strings"
)

// Error is bad input: a flag, a file or a value the command refuses.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Errorf is bad input, its message formatted as fmt.Sprintf does.
func Errorf(format string, args ...any) error { return &Error{fmt.Sprintf(format, args...)} }

// List splits a comma-separated flag value; empty items and repeats are
// errors (a repeated case or size would run and report twice).
func List(flagName, v string, split ...func(string) []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	items := strings.Split(v, ",")
	if len(split) > 0 && split[0] != nil {
		items = split[0](v)
	}
	for _, s := range items {
		s = strings.TrimSpace(s)
		switch {
		case s == "":
			return nil, Errorf("%s: empty item in %q", flagName, v)
		case seen[s]:
			return nil, Errorf("%s: %s given twice", flagName, s)
		}
		seen[s] = true
		out = append(out, s)
	}
	return out, nil
}
