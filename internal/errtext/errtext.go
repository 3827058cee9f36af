// Package errtext gives an error's text for a one-line message that
// already names the file.
package errtext

import (
	"errors"
	"io/fs"
	"os"
	"strings"
)

// Of is err without the operation and path a *PathError or *LinkError
// repeats ("no space left on device", not "write /x/.y.tmp-1-2/z: ...").
func Of(err error) string {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err.Error()
	case errors.As(err, &le):
		return le.Err.Error()
	}
	return strings.TrimSpace(err.Error())
}
