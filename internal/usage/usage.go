// Package usage is bad input: an error the command reports on one line of
// stderr, exiting with status 2.
package usage

import "fmt"

// Error is bad input: a flag, a file or a value the command refuses.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Errorf is bad input, its message formatted as fmt.Sprintf does.
func Errorf(format string, args ...any) error { return &Error{fmt.Sprintf(format, args...)} }
