package rccl

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/akisim/akisim/config"
)

// load is configs/name after the -set overrides, as a Topology.
func load(t *testing.T, name string, sets ...string) Topology {
	t.Helper()
	c, err := config.Load(filepath.Join("..", "configs", name), sets)
	if err != nil {
		t.Fatal(err)
	}
	return FromConfig(c)
}

func all(n int) []int {
	g := make([]int, n)
	for i := range g {
		g[i] = i
	}
	return g
}

// cycle is a ring of GCDs as a directed cycle: rotated to start at its
// smallest GCD, so that rotations compare equal and reversals do not.
func cycle(gcds []int) string {
	i := slices.Index(gcds, slices.Min(gcds))
	return fmt.Sprint(append(slices.Clone(gcds[i:]), gcds[:i]...))
}

// cycles counts the rings' directed cycles.
func cycles(rings []Ring) map[string]int {
	m := map[string]int{}
	for _, r := range rings {
		m[cycle(r.GCDs)]++
	}
	return m
}

func mustRings(t *testing.T, top Topology, gcds []int) []Ring {
	t.Helper()
	rings, err := Rings(top, gcds)
	if err != nil {
		t.Fatal(err)
	}
	return rings
}

func intp(v int) *int { return &v }

// matrix is a topology of n GCDs with lanes(a, b) links between a < b.
func matrix(n int, lanes func(a, b int) int) Topology {
	l := make([][]int, n)
	for a := range l {
		l[a] = make([]int, n)
	}
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			l[a][b], l[b][a] = lanes(a, b), lanes(a, b)
		}
	}
	return Topology{Lanes: l, LaneGBps: 50}
}
