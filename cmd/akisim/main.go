// Command akisim simulates an AMD MI250X compute node (Frontier / LUMI-G)
// described by a TOML config, running a built-in benchmark replica or
// replaying a trace.
//
//	akisim -config frontier-node.toml                   # p2p on Frontier
//	akisim -config frontier-node.toml -workload commscope -filter 'PinnedToGPU/0/0/'
//	akisim -trace traces/h2d-pinned-1gib.jsonl
//	akisim -set 'xgmi.bundle[0-2].lanes=2' -format csv
//	akisim validate
//	akisim configs                                      # the configs built in
//	akisim routes -set 'xgmi.bundle[0-2].lanes=0'       # the route of each traffic type
//	akisim -version
//
// Exit status: 0 ok, 1 the run or validation failed (a write error, a
// point out of tolerance), 2 bad input (nothing was simulated), 3 internal
// error (a bug: the message has the stack), 128+N killed by signal N.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sync/atomic"
	"syscall"

	"github.com/akisim/akisim/internal/errtext"
	"github.com/akisim/akisim/internal/gctune"
	"github.com/akisim/akisim/internal/hugepages"
	"github.com/akisim/akisim/internal/limit"
	"github.com/akisim/akisim/invariant"
	"github.com/akisim/akisim/output"
	"github.com/akisim/akisim/report"
	"github.com/tebeka/atexit"
)

func main() {
	gctune.Start()
	hugepages.Start()
	trapSignals()
	atexit.Exit(cli(os.Args[1:], os.Stdout, os.Stderr))
}

// trapSignals makes SIGINT and SIGTERM end the run through atexit, which
// removes its unfinished files; a write to a closed pipe becomes a write
// error (exit 1, files removed) instead of a silent death by SIGPIPE.
func trapSignals() {
	signal.Ignore(syscall.SIGPIPE)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-ch
		if n, ok := s.(syscall.Signal); ok && graceful.Load() {
			interrupt.Store(int32(n)) // the simulation stops and keeps its rows (progress.go)
			s = <-ch                  // a second signal ends akisim at once
		}
		stopping.Store(true)
		output.FileMu.Lock() // a write or commit under way finishes; none starts after
		code := 128 + 15
		if n, ok := s.(syscall.Signal); ok {
			code = 128 + int(n)
		}
		atexit.Exit(code)
	}()
}

// stopping is set when a signal asks the run to end: no commit starts after.
var stopping atomic.Bool

// cli is main without the exit, so tests can call it.
func cli(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "akisim: internal error: %s\n%s", report.Printable(fmt.Sprint(p)), debug.Stack())
			code = 3
		}
	}()
	output.StdStreams = output.StreamsOf(stdout, stderr)
	o, err := parse(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err == nil {
		o.args = args
	}
	if err == nil {
		if e := limit.CheckEnv(); e != nil {
			err = bad("%v", e)
		}
	}
	out := &stdoutBuffer{w: stdout}
	if err == nil {
		err = dispatch(o, out)
	}
	if errors.Is(err, flag.ErrHelp) { // a command's -h: its usage is on stderr
		err = nil
	}
	var ue *usageError
	var fe *failedError
	var ie *interruptedError
	var ve *invariant.Error
	var le *limit.Error
	if err == nil || errors.As(err, &fe) || errors.As(err, &ie) {
		if ferr := out.flush(); err == nil {
			err = ferr
		}
	}
	out.discard()
	switch {
	case err == nil:
		return 0
	case errors.As(err, &fe):
		return 1
	case errors.As(err, &ie):
		fmt.Fprintln(stderr, "akisim:", report.Printable(err.Error())) // an error may quote input
		return 128 + ie.signal
	case errors.As(err, &ve): // the model broke: a bug, like a panic
		for _, v := range ve.Violations {
			fmt.Fprintf(stderr, "akisim: internal error: %v (run %s)\n", v, ve.Run)
		}
		return 3
	case errors.As(err, &le): // checked before allocating: neither bad input nor a bug
		fmt.Fprintln(stderr, "akisim: resource limit:", le)
		return 4
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, "akisim:", report.Printable(err.Error())) // an error may quote input
		return 2
	default:
		fmt.Fprintln(stderr, "akisim:", report.Printable(err.Error())) // an error may quote input
		return 1
	}
}

func dispatch(o *options, out *stdoutBuffer) (err error) {
	if o.version {
		_, err := io.WriteString(out, versionText())
		return err
	}
	if o.command == "run" || o.command == "validate" { // before any output is created
		if err := checkRunPaths(o); err != nil {
			return err
		}
	}
	if o.cpuprofile != "" {
		stop, perr := startProfile(o.cpuprofile)
		if perr != nil {
			return perr
		}
		defer func() {
			if perr := stop(); err == nil {
				err = perr
			}
		}()
	}
	if o.memprofile != "" {
		mem, perr := output.Open("-memprofile", o.memprofile)
		if perr != nil {
			return perr
		}
		runtime.MemProfileRate = 64 << 10 // coarser than the default: a long run stays fast
		defer func() {
			defer mem.Close()
			runtime.GC()
			perr := mem.Write(func(w io.Writer) error { return pprof.Lookup("allocs").WriteTo(w, 0) })
			if perr == nil {
				perr = mem.Commit()
			}
			if perr != nil && err == nil {
				err = perr
			}
		}()
	}
	switch o.command {
	case "validate":
		return runValidate(o, out)
	case "configs":
		return listConfigs(out)
	case "routes":
		if o.format == "csv" {
			return runRoutes(o, out)
		}
		return asText(out, func(w io.Writer) error { return runRoutes(o, w) })
	case "import":
		return runImport(o.importArgs, o.stderr)
	case "compare":
		return asText(out, func(w io.Writer) error { return runCompare(o.importArgs, w, o.stderr) })
	case "diff":
		return asText(out, func(w io.Writer) error { return runDiff(o.importArgs, w, o.stderr) })
	case "sweep":
		return runSweep(o.importArgs, o.stderr)
	case "plot":
		return runPlot(o.importArgs, out, o.stderr)
	}
	return runSim(o, out)
}

// startProfile starts the CPU profile; stop reports a failed write.
func startProfile(path string) (stop func() error, err error) {
	out, err := output.Open("-cpuprofile", path)
	if err != nil {
		return nil, err
	}
	f, err := out.Create()
	if err != nil {
		out.Close()
		return nil, err
	}
	w := &errWriter{w: f.W}
	if err := pprof.StartCPUProfile(w); err != nil {
		f.Abort()
		out.Close()
		return nil, fmt.Errorf("-cpuprofile: %v", err)
	}
	return func() error {
		defer out.Close()
		pprof.StopCPUProfile()
		err := out.Finish(f)
		if w.err != nil {
			err = out.Fail(w.err)
		}
		if err == nil {
			err = out.Commit()
		}
		return err
	}, nil
}

// stdoutBuffer holds what a command prints until it has succeeded: a
// failed run prints nothing, never a part. Past spillBytes (a long trace's
// rows) it holds them in a temporary file, not in memory.
type stdoutBuffer struct {
	buf   bytes.Buffer
	w     io.Writer
	sent  bool
	spill *os.File      // nil until the buffer outgrows spillBytes
	bw    *bufio.Writer // to spill
	err   error         // the spill file's first error
	clean func()        // removes the spill file
}

// spillBytes is what stdout holds in memory.
var spillBytes = 32 << 20

func (s *stdoutBuffer) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	if s.spill == nil && s.buf.Len()+len(p) > spillBytes {
		f, err := os.CreateTemp("", "akisim-stdout-*")
		if err != nil {
			s.err = fmt.Errorf("stdout: a temporary file for long output: %v", errtext.Of(err))
			return 0, s.err
		}
		s.spill, s.clean, s.bw = f, output.RemoveAtExit(f.Name()), bufio.NewWriterSize(f, 1<<16)
		if _, err := s.bw.Write(s.buf.Bytes()); err != nil {
			s.err = err
			return 0, err
		}
		s.buf = bytes.Buffer{}
	}
	if s.spill != nil {
		n, err := s.bw.Write(p)
		if err != nil {
			s.err = fmt.Errorf("stdout: a temporary file for long output: %v", errtext.Of(err))
		}
		return n, s.err
	}
	return s.buf.Write(p)
}

func (s *stdoutBuffer) WriteString(p string) (int, error) { return s.Write([]byte(p)) }

// discard drops what was held (a failed run).
func (s *stdoutBuffer) discard() {
	if s.spill != nil {
		s.spill.Close()
		s.clean()
		s.spill = nil
	}
	s.buf.Reset()
}

// flush writes the buffer to stdout, once.
func (s *stdoutBuffer) flush() error {
	if s.sent {
		return nil
	}
	s.sent = true
	if s.spill == nil {
		if _, err := s.w.Write(s.buf.Bytes()); err != nil {
			return fmt.Errorf("stdout: %v", errtext.Of(err))
		}
		return nil
	}
	defer s.discard()
	err := s.err
	if err == nil {
		err = s.bw.Flush()
	}
	if err == nil {
		_, err = s.spill.Seek(0, io.SeekStart)
	}
	if err == nil {
		_, err = io.Copy(s.w, s.spill)
	}
	if err != nil {
		return fmt.Errorf("stdout: %v", errtext.Of(err))
	}
	return nil
}

// errWriter keeps the first write error of a writer whose user ignores it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	n, err := e.w.Write(p)
	if err != nil && e.err == nil {
		e.err = err
	}
	return n, err
}
