package errtext

import (
	"errors"
	"io/fs"
	"os"
	"testing"
)

// The path and operation go; the cause stays; other errors are kept whole.
func TestOf(t *testing.T) {
	cause := errors.New("no space left on device")
	for _, c := range []struct {
		err  error
		want string
	}{
		{&fs.PathError{Op: "write", Path: "/x/y", Err: cause}, "no space left on device"},
		{&os.LinkError{Op: "rename", Old: "/a", New: "/b", Err: cause}, "no space left on device"},
		{errors.New("bad value "), "bad value"},
	} {
		if got := Of(c.err); got != c.want {
			t.Errorf("Of(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}
