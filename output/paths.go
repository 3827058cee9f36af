package output

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/akisim/akisim/internal/usage"
)

// A command's files, each named by the flag that gave it. Check
// decides before anything runs that no output overwrites an input or
// another output, and that nothing lies inside a folder the run replaces.

// Path is one file or folder a command reads or writes.
type Path struct {
	Flag string // as the user typed it: "-trace", "plot -o", "import PATH"
	Path string
	// replaced marks an output folder the run replaces as a whole (the
	// run's -outdir): no input and no other output may lie inside it,
	// except the files named in inside, which become its own.
	Replaced bool
	Inside   []string    // flags whose file may be one of the folder's (directly in it)
	Info     fs.FileInfo // an open stream's file (stdout), found without a path
}

// Place is a path as the file system resolves it: absolute, clean, its
// symbolic links followed as far as it exists; info is the file's, when it
// exists.
type Place struct {
	Path string
	Info fs.FileInfo
}

func Locate(p string) Place {
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = filepath.Clean(p)
	}
	w := Place{Path: abs}
	// follow the links of the longest prefix that exists
	rest := ""
	for dir := abs; ; {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			w.Path = filepath.Join(r, rest)
			break
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = up
	}
	if st, err := os.Stat(abs); err == nil {
		w.Info = st
	}
	return w
}

// LocatedOnce is Locate remembering what it found, for checks made at one
// moment: a sweep's points share their inputs and the sweep's own outputs.
type LocatedOnce struct{ found sync.Map }

func (l *LocatedOnce) Locate(p string) Place {
	if w, ok := l.found.Load(p); ok {
		return w.(Place)
	}
	w := Locate(p)
	l.found.Store(p, w)
	return w
}

// special is a device, FIFO or socket (/dev/null, /dev/stdout to a pipe):
// written in place, never replaced.
func (w Place) Special() bool {
	return w.Info != nil && !w.Info.Mode().IsRegular() && !w.Info.IsDir()
}

// device is a character or block device (/dev/null, a terminal): what is
// written there is neither kept nor read back as a file, so it may be named
// twice. A FIFO may not: its reader would get two outputs interleaved.
func (w Place) Device() bool {
	return w.Info != nil && w.Info.Mode()&fs.ModeDevice != 0
}

// StdStreams are the files stdout and stderr write to, found when the
// command starts (cli); an output that is one of them is refused, since its
// replacement would leave the stream writing into a file no longer there.
var StdStreams []Path

// StreamsOf finds the files behind stdout and stderr, where they are files
// (a test's buffer is not).
func StreamsOf(stdout, stderr any) []Path {
	var out []Path
	for _, s := range []struct {
		name string
		w    any
	}{{"stdout", stdout}, {"stderr", stderr}} {
		if f, ok := s.w.(*os.File); ok {
			if st, err := f.Stat(); err == nil {
				a := Path{Flag: s.name, Info: st}
				if st.Mode().IsRegular() { // its path, for a folder the run replaces
					a.Path, _ = filepath.EvalSymlinks(fmt.Sprintf("/proc/self/fd/%d", f.Fd()))
				}
				out = append(out, a)
			}
		}
	}
	return out
}

// sameFile says whether a and b are one file: one path, or hard links.
func sameFile(a, b Place) bool {
	if a.Path == b.Path {
		return true
	}
	return a.Info != nil && b.Info != nil && os.SameFile(a.Info, b.Info)
}

// within says whether a lies inside the folder dir.
func Within(a, dir Place) bool {
	return strings.HasPrefix(a.Path, strings.TrimSuffix(dir.Path, string(filepath.Separator))+string(filepath.Separator))
}

// Check refuses an output that is an input, two outputs that are one
// file, and an input or output inside a folder the run replaces. Empty
// paths are not given and are skipped.
func Check(ins, outs []Path) error { return CheckWith(Locate, ins, outs) }

// CheckWith is Check finding each path with find: a sweep finds
// the paths every point shares once (LocatedOnce).
func CheckWith(find func(string) Place, ins, outs []Path) error {
	at := func(args []Path) []Place {
		ws := make([]Place, len(args))
		for i, a := range args {
			if a.Path != "" {
				ws[i] = find(a.Path)
			}
		}
		return ws
	}
	inW, outW := at(ins), at(outs)
	for i, o := range outs {
		if o.Path == "" || outW[i].Device() {
			continue
		}
		for _, s := range StdStreams {
			if outW[i].Info != nil && !(Place{Info: s.Info}).Device() && os.SameFile(outW[i].Info, s.Info) {
				return usage.Errorf("%s %s: is the file %s writes to, which would lose what it holds or mix the two: name another file", o.Flag, o.Path, s.Flag)
			}
			if o.Replaced && s.Path != "" && Within(Place{Path: s.Path}, outW[i]) {
				return usage.Errorf("%s %s: holds the file %s writes to, and the run replaces it as a whole: write %s elsewhere", o.Flag, o.Path, s.Flag, s.Flag)
			}
		}
		if o.Replaced && filepath.Dir(outW[i].Path) == outW[i].Path {
			return usage.Errorf("%s %s: the root folder cannot be an outdir", o.Flag, o.Path)
		}
		for j, in := range ins {
			if in.Path == "" {
				continue
			}
			if sameFile(outW[i], inW[j]) {
				return usage.Errorf("%s %s: is the input %s %s; it would be overwritten", o.Flag, o.Path, in.Flag, in.Path)
			}
			if o.Replaced && Within(inW[j], outW[i]) {
				return usage.Errorf("%s %s: holds the input %s %s, and the run replaces it as a whole; move the input out", o.Flag, o.Path, in.Flag, in.Path)
			}
		}
		for j, p := range outs[:i] {
			if p.Path == "" {
				continue
			}
			if sameFile(outW[i], outW[j]) {
				return usage.Errorf("%s %s and %s %s: name the same file; give each its own", p.Flag, p.Path, o.Flag, o.Path)
			}
		}
		for j, d := range outs {
			if j == i || !d.Replaced || d.Path == "" || !Within(outW[i], outW[j]) {
				continue
			}
			allowed := false
			for _, f := range d.Inside {
				allowed = allowed || f == o.Flag
			}
			if !allowed || filepath.Dir(outW[i].Path) != outW[j].Path {
				return usage.Errorf("%s %s: is inside %s %s, which the run replaces as a whole; write it elsewhere", o.Flag, o.Path, d.Flag, d.Path)
			}
		}
	}
	return nil
}
