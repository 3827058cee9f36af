package workloads

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// TransferBench config files (ROCm/TransferBench v1.52, src/TransferBench.cpp
// ParseTransfers; notes in docs/model/transferbench.md "TransferBench"): one test per line,
// all of its transfers run at once.
//
//	N SE (SRC->EXE->DST) ...            basic: N transfers, SE each, the command line's size
//	-N (SRC->EXE->DST SE BYTES) ...     advanced: SE and size per transfer (K, M, G: binary)
//
// Brackets, '-' and '>' after the first character are decoration. A line
// starting with '#' is a comment; "##" lines are echoed to the output.
// Where TransferBench skips a line it cannot read, akisim stops with the
// file, the line and what is wrong.

// TBConfig is a parsed TransferBench config file.
type TBConfig struct {
	Path  string
	Lines []TBLine
	Tail  []string // "##" lines after the last test
}

// TBLine is one test line and the "##" lines echoed before it.
type TBLine struct {
	Line      int
	Echo      []string
	Transfers []TBTransfer
}

// TBMem is one memory location: a TransferBench memory letter and its
// device (NUMA domain for host memory, GPU for device memory).
type TBMem struct {
	Kind  byte // C pinned host, B fine-grained host, U unpinned host, G device, F fine-grained device, M managed
	Index int
}

// TBTransfer is one transfer: its executor reads every source, adds them,
// and writes the sum to every destination.
type TBTransfer struct {
	Srcs, Dsts []TBMem
	Exe        byte // C CPU threads, G GPU kernel, D SDMA
	ExeIndex   int
	ExeSub     int   // D<n>.<e>: SDMA engine e; -1 when not given
	SE         int   // sub-executors: CPU threads, threadblocks; unused by D
	Bytes      int64 // 0: the command line's size
}

// tbMemKinds and tbExeKinds are v1.52's letters (TransferBench.hpp:67-69).
const tbMemKinds, tbExeKinds = "CGBFUNM", "CGD"

// TBExeName is the executor's name as TransferBench prints it.
func TBExeName(exe byte) string {
	return map[byte]string{'C': "CPU", 'G': "GPU", 'D': "DMA"}[exe]
}

// TBMaxFileBytes is the largest config file read, as a node config's cap:
// a TransferBench config is a few lines.
const TBMaxFileBytes = 16 << 20

// tbMaxLine is TransferBench's longest line (MAX_LINE_LEN).
const tbMaxLine = 32768

// ParseTransferBench reads a config file; errors name path and line.
func ParseTransferBench(path string, r io.Reader) (*TBConfig, error) {
	cfg := &TBConfig{Path: path}
	lr := &io.LimitedReader{R: r, N: TBMaxFileBytes + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 0, 4<<10), tbMaxLine) // a larger first buffer would raise the cap to its size
	var echo []string
	n := 1
	for ; sc.Scan(); n++ {
		if lr.N == 0 {
			return nil, fmt.Errorf("%s: larger than %d MiB, the most a TransferBench config may be", path, TBMaxFileBytes>>20)
		}
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.HasPrefix(text, "##") {
			echo = append(echo, text)
			continue
		}
		if t := strings.TrimSpace(text); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		ts, err := parseTBLine(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		cfg.Lines = append(cfg.Lines, TBLine{Line: n, Echo: echo, Transfers: ts})
		echo = nil
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("%s:%d: a line longer than %d bytes, TransferBench's longest (MAX_LINE_LEN)", path, n, tbMaxLine)
	} else if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(cfg.Lines) == 0 {
		return nil, fmt.Errorf("%s: no test lines (want N SE (SRC->EXE->DST) ... or -N (SRC->EXE->DST SE BYTES) ...)", path)
	}
	cfg.Tail = echo
	return cfg, nil
}

// parseTBLine reads one test line.
func parseTBLine(text string) ([]TBTransfer, error) {
	b := []byte(text)
	for i := 1; i < len(b); i++ { // the first character keeps an advanced line's '-'
		switch b[i] {
		case '-':
			if signs(b, i) {
				continue // kept, so a count or size -5 is refused, not read as 5
			}
			b[i] = ' '
		case '(', ')', '>':
			b[i] = ' '
		}
	}
	f := strings.Fields(string(b))
	count, err := strconv.Atoi(f[0])
	if err != nil || count == 0 {
		return nil, fmt.Errorf("want a transfer count (N, or -N for an advanced line) first, got %q", f[0])
	}
	advanced := count < 0
	if advanced {
		count = -count
	}
	per, at := 3, 1
	se := 0
	if advanced {
		per = 5
	} else {
		if len(f) < 2 {
			return nil, fmt.Errorf("want the sub-executor count after %d", count)
		}
		if se, err = tbSE(f[1]); err != nil {
			return nil, err
		}
		at = 2
	}
	if want := at + count*per; len(f) != want {
		what := "(SRC->EXE->DST)"
		if advanced {
			what = "(SRC->EXE->DST SE BYTES)"
		}
		return nil, fmt.Errorf("want %d transfers %s, got %d fields for them", count, what, len(f)-at)
	}
	ts := make([]TBTransfer, count)
	for i := range ts {
		g := f[at+i*per : at+(i+1)*per]
		t := &ts[i]
		if t.Srcs, err = tbMems(g[0]); err != nil {
			return nil, fmt.Errorf("transfer %d: SRC %v", i, err)
		}
		if t.Exe, t.ExeIndex, t.ExeSub, err = tbExe(g[1]); err != nil {
			return nil, fmt.Errorf("transfer %d: EXE %v", i, err)
		}
		if t.Dsts, err = tbMems(g[2]); err != nil {
			return nil, fmt.Errorf("transfer %d: DST %v", i, err)
		}
		t.SE = se
		if advanced {
			if t.SE, err = tbSE(g[3]); err != nil {
				return nil, fmt.Errorf("transfer %d: %v", i, err)
			}
			if t.Bytes, err = TBBytes(g[4]); err != nil {
				return nil, fmt.Errorf("transfer %d: BYTES %v", i, err)
			}
		}
		if len(t.Srcs) == 0 && len(t.Dsts) == 0 {
			return nil, fmt.Errorf("transfer %d: a transfer must have at least one src or dst", i)
		}
		if t.Exe == 'D' && (len(t.Srcs) != 1 || len(t.Dsts) != 1) {
			return nil, fmt.Errorf("transfer %d: a DMA executor copies one SRC to one DST", i)
		}
		if t.SE == 0 {
			return nil, fmt.Errorf("transfer %d: 0 sub-executors (TransferBench's search for the best count) is not supported", i)
		}
	}
	return ts, nil
}

// signs says whether the '-' at b[i] is a number's sign, not decoration:
// it starts a field (after a space or bracket) and a digit follows.
func signs(b []byte, i int) bool {
	prev := b[i-1]
	return (prev == ' ' || prev == '\t' || prev == '(' || prev == ')') && i+1 < len(b) && b[i+1] >= '0' && b[i+1] <= '9'
}

// tbSE reads a sub-executor count.
func tbSE(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 1<<16 {
		return 0, fmt.Errorf("want a sub-executor count 0..65536, got %q", s)
	}
	return n, nil
}

// tbMems reads a memory token: letter-index pairs (G0G1: GPU 0 and GPU
// 1); N (null) takes an index and adds nothing.
func tbMems(tok string) ([]TBMem, error) {
	var ms []TBMem
	for s := strings.ToUpper(tok); s != ""; {
		k := s[0]
		if !strings.ContainsRune(tbMemKinds, rune(k)) {
			return nil, fmt.Errorf("%q: unknown memory type %q (want C, G, B, F, U, N or M)", tok, k)
		}
		j := 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		idx, err := strconv.Atoi(s[1:j])
		if err != nil || j > 6 {
			return nil, fmt.Errorf("%q: want an index after %c", tok, k)
		}
		if k != 'N' {
			ms = append(ms, TBMem{Kind: k, Index: idx})
		}
		s = s[j:]
	}
	return ms, nil
}

// tbExe reads an executor token: C<numa>, G<gpu>, D<gpu> or D<gpu>.<engine>.
func tbExe(tok string) (exe byte, idx, sub int, err error) {
	s := strings.ToUpper(tok)
	exe, sub = s[0], -1
	if !strings.ContainsRune(tbExeKinds, rune(exe)) {
		return 0, 0, 0, fmt.Errorf("%q: unknown executor %q (want C, G or D)", tok, exe)
	}
	num, subs, dotted := strings.Cut(s[1:], ".")
	if idx, err = strconv.Atoi(num); err != nil || idx < 0 || len(num) > 5 {
		return 0, 0, 0, fmt.Errorf("%q: want an index after %c", tok, exe)
	}
	if dotted {
		if sub, err = strconv.Atoi(subs); err != nil || sub < 0 || sub > 31 {
			return 0, 0, 0, fmt.Errorf("%q: want a sub-index 0..31 after the dot", tok)
		}
	}
	return exe, idx, sub, nil
}

// TBBytes reads a size as TransferBench does (K, M, G: times 1024, 1024²,
// 1024³); 0 means the command line's size.
func TBBytes(s string) (int64, error) {
	mult := int64(1)
	num := s
	if s != "" {
		switch s[len(s)-1] {
		case 'K', 'k':
			mult, num = 1<<10, s[:len(s)-1]
		case 'M', 'm':
			mult, num = 1<<20, s[:len(s)-1]
		case 'G', 'g':
			mult, num = 1<<30, s[:len(s)-1]
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > (1<<40)/mult {
		return 0, fmt.Errorf("want a byte count 0..2^40, with an optional K, M or G, got %q", s)
	}
	return n * mult, nil
}
