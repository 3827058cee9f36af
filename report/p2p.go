package report

import (
	"fmt"
	"io"
)

// p2pMatrix describes one matrix of the p2pBandwidthLatencyTest output.
type p2pMatrix struct {
	Case   string // Row.Case
	Metric string // Row.Metric
	Title  string // title line, as the CUDA sample prints it
	Corner string // first six characters of the header line
	// unit conversion to the printed unit: printed = value * scale[Unit]
	Scale map[string]float64
}

var (
	toGBps = map[string]float64{"GB/s": 1, "MB/s": 1e-3, "kB/s": 1e-6, "B/s": 1e-9, "TB/s": 1e3}
	toUs   = map[string]float64{"us": 1, "ns": 1e-3, "ms": 1e3, "s": 1e6}
)

// p2pMatrices lists the matrices in print order. The header corners are
// those of NVIDIA's p2pBandwidthLatencyTest.cu: "   D\D" for the bandwidth
// matrices and "   GPU" for the latency matrix.
var p2pMatrices = []p2pMatrix{
	{"unidirectional", "bandwidth", "Unidirectional P2P=Enabled Bandwidth (P2P Writes) Matrix (GB/s)", `   D\D`, toGBps},
	{"bidirectional", "bandwidth", "Bidirectional P2P=Enabled Bandwidth Matrix (GB/s)", `   D\D`, toGBps},
	{"latency", "latency", "P2P=Enabled Latency (P2P Writes) Matrix (us)", "   GPU", toUs},
}

// WriteP2P writes rows in the layout of p2pBandwidthLatencyTest for n GCDs.
//
// Only rows with Workload "p2p" are used; others are skipped. A p2p row
// must have Case "unidirectional" or "bidirectional" with Metric
// "bandwidth", or Case "latency" with Metric "latency"; Src and Dst must
// name GCDs in [0, n) as rows do ("gcd3"). Bandwidth is printed in GB/s and latency in us
// (rows in MB/s, ns and similar are converted). For each case present, in
// the order unidirectional, bidirectional, latency, WriteP2P prints the
// title line, the header line printf("%6s", corner) + printf("%6d ", j)
// per column, one line per source GCD i as printf("%6d ", i) followed by
// printf("%6.02f ", value) per destination, and a blank line. Cells with no
// row print as printf("%6s ", "-"). Two rows for the same cell are an error.
func WriteP2P(w io.Writer, rows []Row, n int) error {
	if n <= 0 {
		return fmt.Errorf("report: p2p: GCD count %d must be positive", n)
	}
	type cell struct {
		v   float64
		set bool
	}
	grids := make([][]cell, len(p2pMatrices))
	for ri, r := range rows {
		if r.Workload != "p2p" {
			continue
		}
		mi := -1
		for i, m := range p2pMatrices {
			if m.Case == r.Case {
				mi = i
				break
			}
		}
		if mi < 0 {
			return fmt.Errorf("report: p2p row %d: unknown case %q", ri, r.Case)
		}
		m := p2pMatrices[mi]
		if r.Metric != m.Metric {
			return fmt.Errorf("report: p2p row %d: case %q wants metric %q, got %q", ri, r.Case, m.Metric, r.Metric)
		}
		scale, ok := m.Scale[r.Unit]
		if !ok {
			return fmt.Errorf("report: p2p row %d: unknown %s unit %q", ri, r.Metric, r.Unit)
		}
		src, err := gcdID(r.Src, n)
		if err != nil {
			return fmt.Errorf("report: p2p row %d: src: %w", ri, err)
		}
		dst, err := gcdID(r.Dst, n)
		if err != nil {
			return fmt.Errorf("report: p2p row %d: dst: %w", ri, err)
		}
		if grids[mi] == nil {
			grids[mi] = make([]cell, n*n)
		}
		c := &grids[mi][src*n+dst]
		if c.set {
			return fmt.Errorf("report: p2p row %d: duplicate %s cell %d->%d", ri, r.Case, src, dst)
		}
		*c = cell{v: r.Value * scale, set: true}
	}

	var buf []byte
	for mi, m := range p2pMatrices {
		g := grids[mi]
		if g == nil {
			continue
		}
		buf = append(buf, m.Title...)
		buf = append(buf, '\n')
		buf = fmt.Appendf(buf, "%6s", m.Corner)
		for j := 0; j < n; j++ {
			buf = fmt.Appendf(buf, "%6d ", j)
		}
		buf = append(buf, '\n')
		for i := 0; i < n; i++ {
			buf = fmt.Appendf(buf, "%6d ", i)
			for j := 0; j < n; j++ {
				if c := g[i*n+j]; c.set {
					buf = fmt.Appendf(buf, "%6.2f ", c.v)
				} else {
					buf = fmt.Appendf(buf, "%6s ", "-")
				}
			}
			buf = append(buf, '\n')
		}
		buf = append(buf, '\n')
	}
	_, err := w.Write(buf)
	return err
}

// gcdID parses a GCD endpoint ("gcd3") and checks its id is in [0, n).
func gcdID(s string, n int) (int, error) {
	e, err := ParseEndpoint(s)
	if err != nil {
		return 0, err
	}
	if !e.Device() {
		return 0, fmt.Errorf("endpoint %q is not a GCD or GPU", s)
	}
	if e.ID >= n {
		return 0, fmt.Errorf("GCD id %d is outside [0, %d)", e.ID, n)
	}
	return e.ID, nil
}
