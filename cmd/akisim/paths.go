package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// A command's files, each named by the flag that gave it. checkPaths
// decides before anything runs that no output overwrites an input or
// another output, and that nothing lies inside a folder the run replaces.

// pathArg is one file or folder a command reads or writes.
type pathArg struct {
	flag string // as the user typed it: "-trace", "plot -o", "import PATH"
	path string
	// replaced marks an output folder the run replaces as a whole (the
	// run's -outdir): no input and no other output may lie inside it,
	// except the files named in inside, which become its own.
	replaced bool
	inside   []string    // flags whose file may be one of the folder's (directly in it)
	info     fs.FileInfo // an open stream's file (stdout), found without a path
}

// where is a path as the file system resolves it: absolute, clean, its
// symbolic links followed as far as it exists; info is the file's, when it
// exists.
type where struct {
	path string
	info fs.FileInfo
}

func locate(p string) where {
	abs, err := filepath.Abs(p)
	if err != nil {
		abs = filepath.Clean(p)
	}
	w := where{path: abs}
	// follow the links of the longest prefix that exists
	rest := ""
	for dir := abs; ; {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			w.path = filepath.Join(r, rest)
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
		w.info = st
	}
	return w
}

// locatedOnce is locate remembering what it found, for checks made at one
// moment: a sweep's points share their inputs and the sweep's own outputs.
type locatedOnce struct{ found sync.Map }

func (l *locatedOnce) locate(p string) where {
	if w, ok := l.found.Load(p); ok {
		return w.(where)
	}
	w := locate(p)
	l.found.Store(p, w)
	return w
}

// special is a device, FIFO or socket (/dev/null, /dev/stdout to a pipe):
// written in place, never replaced.
func (w where) special() bool {
	return w.info != nil && !w.info.Mode().IsRegular() && !w.info.IsDir()
}

// device is a character or block device (/dev/null, a terminal): what is
// written there is neither kept nor read back as a file, so it may be named
// twice. A FIFO may not: its reader would get two outputs interleaved.
func (w where) device() bool {
	return w.info != nil && w.info.Mode()&fs.ModeDevice != 0
}

// stdStreams are the files stdout and stderr write to, found when the
// command starts (cli); an output that is one of them is refused, since its
// replacement would leave the stream writing into a file no longer there.
var stdStreams []pathArg

// streamsOf finds the files behind stdout and stderr, where they are files
// (a test's buffer is not).
func streamsOf(stdout, stderr any) []pathArg {
	var out []pathArg
	for _, s := range []struct {
		name string
		w    any
	}{{"stdout", stdout}, {"stderr", stderr}} {
		if f, ok := s.w.(*os.File); ok {
			if st, err := f.Stat(); err == nil {
				a := pathArg{flag: s.name, info: st}
				if st.Mode().IsRegular() { // its path, for a folder the run replaces
					a.path, _ = filepath.EvalSymlinks(fmt.Sprintf("/proc/self/fd/%d", f.Fd()))
				}
				out = append(out, a)
			}
		}
	}
	return out
}

// sameFile says whether a and b are one file: one path, or hard links.
func sameFile(a, b where) bool {
	if a.path == b.path {
		return true
	}
	return a.info != nil && b.info != nil && os.SameFile(a.info, b.info)
}

// within says whether a lies inside the folder dir.
func within(a, dir where) bool {
	return strings.HasPrefix(a.path, strings.TrimSuffix(dir.path, string(filepath.Separator))+string(filepath.Separator))
}

// checkPaths refuses an output that is an input, two outputs that are one
// file, and an input or output inside a folder the run replaces. Empty
// paths are not given and are skipped.
func checkPaths(ins, outs []pathArg) error { return checkPathsWith(locate, ins, outs) }

// checkPathsWith is checkPaths finding each path with find: a sweep finds
// the paths every point shares once (locatedOnce).
func checkPathsWith(find func(string) where, ins, outs []pathArg) error {
	at := func(args []pathArg) []where {
		ws := make([]where, len(args))
		for i, a := range args {
			if a.path != "" {
				ws[i] = find(a.path)
			}
		}
		return ws
	}
	inW, outW := at(ins), at(outs)
	for i, o := range outs {
		if o.path == "" || outW[i].device() {
			continue
		}
		for _, s := range stdStreams {
			if outW[i].info != nil && !(where{info: s.info}).device() && os.SameFile(outW[i].info, s.info) {
				return bad("%s %s: is the file %s writes to, which would lose what it holds or mix the two: name another file", o.flag, o.path, s.flag)
			}
			if o.replaced && s.path != "" && within(where{path: s.path}, outW[i]) {
				return bad("%s %s: holds the file %s writes to, and the run replaces it as a whole: write %s elsewhere", o.flag, o.path, s.flag, s.flag)
			}
		}
		if o.replaced && filepath.Dir(outW[i].path) == outW[i].path {
			return bad("%s %s: the root folder cannot be an outdir", o.flag, o.path)
		}
		for j, in := range ins {
			if in.path == "" {
				continue
			}
			if sameFile(outW[i], inW[j]) {
				return bad("%s %s: is the input %s %s; it would be overwritten", o.flag, o.path, in.flag, in.path)
			}
			if o.replaced && within(inW[j], outW[i]) {
				return bad("%s %s: holds the input %s %s, and the run replaces it as a whole; move the input out", o.flag, o.path, in.flag, in.path)
			}
		}
		for j, p := range outs[:i] {
			if p.path == "" {
				continue
			}
			if sameFile(outW[i], outW[j]) {
				return bad("%s %s and %s %s: name the same file; give each its own", p.flag, p.path, o.flag, o.path)
			}
		}
		for j, d := range outs {
			if j == i || !d.replaced || d.path == "" || !within(outW[i], outW[j]) {
				continue
			}
			allowed := false
			for _, f := range d.inside {
				allowed = allowed || f == o.flag
			}
			if !allowed || filepath.Dir(outW[i].path) != outW[j].path {
				return bad("%s %s: is inside %s %s, which the run replaces as a whole; write it elsewhere", o.flag, o.path, d.flag, d.path)
			}
		}
	}
	return nil
}

// runPaths are a run's (or validate's) inputs and outputs: the config and
// its bases, the trace, TransferBench's -cfg; the outdir, whose own files
// a -timeline, -rocprof or -daisen directly in it become, and the other files.
func (o *options) runPaths(configFiles []string) (ins, outs []pathArg) {
	for i, f := range configFiles {
		if strings.HasPrefix(f, "embedded:") {
			continue
		}
		flag := "-config"
		if i > 0 {
			flag = "-config's base"
		}
		ins = append(ins, pathArg{flag: flag, path: f})
	}
	ins = append(ins, pathArg{flag: "-trace", path: o.tracePath}, pathArg{flag: "-cfg", path: o.tbConfig})
	outs = []pathArg{
		{flag: "-outdir", path: o.outdir, replaced: true, inside: []string{"-timeline", "-rocprof", "-daisen"}},
		{flag: "-timeline", path: o.timeline}, {flag: "-rocprof", path: o.rocprof}, {flag: "-daisen", path: o.daisen},
		{flag: "-cpuprofile", path: o.cpuprofile}, {flag: "-memprofile", path: o.memprofile},
	}
	return ins, outs
}

// checkRunPaths reads the config (once: readConfig keeps it) and checks
// the run's paths, before any output is opened.
func checkRunPaths(o *options) error {
	in, err := readConfig(o)
	if err != nil {
		return err
	}
	ins, outs := o.runPaths(in.src.Files())
	return checkPaths(ins, outs)
}
