package halo

import (
	"slices"
	"strings"
	"testing"
)

func mustDecompose(t *testing.T, name string, global []int, procs int) *Decomposition {
	t.Helper()
	d, err := Decompose(name, global, procs, LUMILevels)
	if err != nil {
		t.Fatalf("Decompose(%s, %v, %d): %v", name, global, procs, err)
	}
	return d
}

// mpi-no: MPI_Cart_create numbers ranks row-major over MPI's dims (the last
// MPI dimension fastest, MPIR_Cart_create_impl's position loop); acm's axes
// are MPI's reversed.
func TestMPINoCartesianOrder(t *testing.T) {
	for _, c := range []struct {
		global []int
		procs  int
	}{{[]int{60, 60}, 6}, {[]int{256, 256, 256}, 64}, {[]int{96, 64, 32}, 24}, {[]int{64}, 4}} {
		d := mustDecompose(t, MPINo, c.global, c.procs)
		mpiDims, _ := DimsCreate(c.procs, len(c.global))
		if !slices.Equal(d.Dims, reversed(mpiDims)) {
			t.Fatalf("%v over %d: dims %v, MPI dims %v", c.global, c.procs, d.Dims, mpiDims)
		}
		for r := 0; r < c.procs; r++ {
			pos := make([]int, len(mpiDims))
			rest, n := r, c.procs
			for i, m := range mpiDims {
				n /= m
				pos[i] = rest / n
				rest %= n
			}
			if got := d.Coords(r); !slices.Equal(got, reversed(pos)) {
				t.Fatalf("%v over %d: rank %d at %v, MPI's position %v (reversed %v)", c.global, c.procs, r, got, pos, reversed(pos))
			}
		}
	}
	// 6 ranks in 2D: MPI's 3x2 is 2 ranks along x, 3 along y.
	if d := mustDecompose(t, MPINo, []int{60, 60}, 6); !slices.Equal(d.Dims, []int{2, 3}) || !slices.Equal(d.Local, []int{30, 20}) {
		t.Errorf("6 ranks on 60x60: dims %v local %v", d.Dims, d.Local)
	}
}

// mpi-default assumes Cray MPICH keeps the order: the same as mpi-no.
func TestMPIDefaultKeepsOrder(t *testing.T) {
	a := mustDecompose(t, MPINo, []int{4096, 2048, 128}, 64)
	b := mustDecompose(t, MPIDefault, []int{4096, 2048, 128}, 64)
	for r := 0; r < 64; r++ {
		if !slices.Equal(a.Coords(r), b.Coords(r)) {
			t.Fatalf("rank %d: mpi-no %v, mpi-default %v", r, a.Coords(r), b.Coords(r))
		}
	}
}

// acm's get_local_nn divides without a check: a remainder is dropped.
func TestMPINoTruncatesAsACM(t *testing.T) {
	d := mustDecompose(t, MPINo, []int{10, 9}, 4)
	if !slices.Equal(d.Local, []int{5, 4}) {
		t.Errorf("10x9 over 2x2: local %v, want 5x4 (9/2 truncated)", d.Local)
	}
}

// acm's greedy search, worked by hand, and acm's own tests
// (tests/acm/detail/test_decomp.cc:35-62: the cuts divide the grid).
func TestCustomDecomposition(t *testing.T) {
	for _, c := range []struct {
		global []int
		procs  int
		want   []int
	}{
		// 16x4: cutting x (8x4, 10*6/32) beats y (16x2, 18*4/32); then
		// 4x4 (6*6/16) beats 8x2 (10*4/16).
		{[]int{16, 4}, 4, []int{4, 1}},
		// A tie keeps the first found: the highest axis.
		{[]int{8, 8}, 2, []int{1, 2}},
		{[]int{256, 256, 256}, 64, []int{4, 4, 4}},
		{[]int{256, 256, 256}, 8, []int{2, 2, 2}},
		{[]int{7 * 20, 128, 128}, 7, []int{7, 1, 1}},
		{[]int{9, 10, 11}, 11, []int{1, 1, 11}},
	} {
		d := mustDecompose(t, Custom, c.global, c.procs)
		if !slices.Equal(d.Dims, c.want) {
			t.Errorf("custom %v over %d: %v, want %v", c.global, c.procs, d.Dims, c.want)
		}
	}
	for _, c := range []struct {
		global []int
		procs  int
	}{{[]int{512, 128, 128}, 32}, {[]int{20, 30, 40}, 50}} {
		d := mustDecompose(t, Custom, c.global, c.procs)
		for a := range c.global {
			if d.Local[a]*d.Dims[a] != c.global[a] || product(d.Dims) != c.procs {
				t.Errorf("custom %v over %d: dims %v local %v do not tile the grid", c.global, c.procs, d.Dims, d.Local)
			}
		}
	}
}

// acm's expected hierarchical decompositions (test_decomp.cc:157-185,
// mpi_utils.cc:197-209).
func TestHierarchicalMatchesACMTests(t *testing.T) {
	for _, c := range []struct {
		global []int
		procs  int
		levels []int
		want   [][]int
	}{
		{[]int{2048, 1024, 512}, 512, []int{2, 2, 2}, [][]int{{2, 1, 1}, {1, 2, 1}, {1, 1, 2}, {8, 4, 2}}},
		{[]int{1024, 1024, 1024}, 1024, []int{2, 8, 4}, [][]int{{1, 1, 2}, {2, 2, 2}, {2, 2, 1}, {2, 2, 4}}},
	} {
		d, err := Decompose(Hierarchical, c.global, c.procs, c.levels)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(d.Levels, c.want, slices.Equal) {
			t.Errorf("hierarchical %v over %d %v: levels %v, acm %v", c.global, c.procs, c.levels, d.Levels, c.want)
		}
	}
	d, err := Decompose(Hierarchical, []int{128, 128, 128}, 64, []int{2, 4})
	if err != nil || !slices.Equal(d.Dims, []int{4, 4, 4}) {
		t.Errorf("hierarchical 128^3 over 64 {2,4}: %v, %v; acm 4x4x4", d, err)
	}
	// decompose_hierarchical(256x128x128, {16, 4, 2}): level sizes as acm's test.
	levels, err := acmHierarchical([]int{256, 128, 128}, []int{16, 4, 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{16, 4, 2} {
		if product(levels[i]) != want {
			t.Errorf("level %d: %v, want %d ranks", i, levels[i], want)
		}
	}
}

// The rank's low digits are the finest level (hierarchical_to_spatial):
// ranks 0 and 1 are the two halves of the first package's box.
func TestHierarchicalRankOrder(t *testing.T) {
	d := mustDecompose(t, Hierarchical, []int{256, 256, 256}, 64)
	if !slices.EqualFunc(d.Levels, [][]int{{2, 1, 1}, {1, 2, 1}, {1, 1, 2}, {2, 2, 2}}, slices.Equal) {
		t.Fatalf("levels %v", d.Levels)
	}
	for r, want := range map[int][]int{0: {0, 0, 0}, 1: {1, 0, 0}, 2: {0, 1, 0}, 4: {0, 0, 1}, 7: {1, 1, 1}, 8: {2, 0, 0}, 16: {0, 2, 0}, 32: {0, 0, 2}, 63: {3, 3, 3}} {
		if got := d.Coords(r); !slices.Equal(got, want) {
			t.Errorf("rank %d at %v, want %v", r, got, want)
		}
	}
}

// Every decomposition is a bijection onto the grid of ranks and its
// neighbours are symmetric: the neighbour in d has the rank as its
// neighbour in -d.
func TestNeighboursSymmetric(t *testing.T) {
	for _, name := range DecompositionNames {
		for _, c := range []struct {
			global []int
			procs  int
		}{{[]int{256, 256, 256}, 64}, {[]int{512, 256, 128}, 8}, {[]int{1024, 1024, 16}, 8}, {[]int{128, 256, 512}, 64}, {[]int{256, 256}, 16}, {[]int{4096}, 8}, {[]int{64, 64, 64}, 2}, {[]int{64, 64, 64}, 1}} {
			d := mustDecompose(t, name, c.global, c.procs)
			if n := len(allDirections(len(c.global))); n != pow3(len(c.global))-1 {
				t.Fatalf("%d directions in %d D", n, len(c.global))
			}
			seen := map[string]bool{}
			for r := 0; r < d.Procs(); r++ {
				key := joinDims(d.Coords(r))
				if seen[key] {
					t.Fatalf("%s %v: coordinates %s twice", name, c.global, key)
				}
				seen[key] = true
				if n := d.Neighbour(r, make([]int, len(c.global))); n != r {
					t.Fatalf("%s %v: rank %d's own place holds %d", name, c.global, r, n)
				}
				for _, dir := range allDirections(len(c.global)) {
					back := make([]int, len(dir))
					for a := range dir {
						back[a] = -dir[a]
					}
					if n := d.Neighbour(r, dir); d.Neighbour(n, back) != r {
						t.Fatalf("%s %v over %d: rank %d -> %v -> %d -> %v -> %d", name, c.global, c.procs, r, dir, n, back, d.Neighbour(n, back))
					}
				}
			}
		}
	}
}

func TestDecomposeBadInput(t *testing.T) {
	for _, c := range []struct {
		name   string
		global []int
		procs  int
		levels []int
		field  string
	}{
		{MPINo, []int{64, 64, 64}, 0, nil, "procs:"},
		{Custom, []int{64, 64, 64}, -1, nil, "procs:"},
		{"mpi-reorder", []int{64, 64, 64}, 8, nil, "decomp:"},
		{MPINo, []int{}, 8, nil, "dims:"},
		{MPINo, []int{8, 8, 8, 8}, 8, nil, "dims:"},
		{MPINo, []int{64, 0, 64}, 8, nil, "dims:"},
		{MPINo, []int{4, 64}, 64, nil, "dims:"},         // 8x8 ranks: 4 points over 8
		{Custom, []int{7, 7}, 2, nil, "dims:"},          // no cut divides
		{Hierarchical, []int{9, 9, 9}, 8, nil, "dims:"}, // acm requires division
		{Hierarchical, []int{64, 64, 64}, 6, []int{2, 2, 2}, "levels:"},
		{Hierarchical, []int{64, 64, 64}, 12, []int{2, 2, 2}, "levels:"},
		{Hierarchical, []int{64, 64, 64}, 8, []int{2, 0}, "levels:"},
	} {
		levels := c.levels
		if levels == nil {
			levels = LUMILevels
		}
		_, err := Decompose(c.name, c.global, c.procs, levels)
		if err == nil || !strings.HasPrefix(err.Error(), c.field) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Decompose(%s, %v, %d, %v): %v; want one line starting %q", c.name, c.global, c.procs, levels, err, c.field)
		}
	}
	// Levels acm accepts although they are not all filled: 2 procs on {2,2,2}.
	if d, err := Decompose(Hierarchical, []int{64, 64, 64}, 2, LUMILevels); err != nil || product(d.Dims) != 2 {
		t.Errorf("2 procs on {2,2,2}: %v, %v", d, err)
	}
}

// allDirections is every vector of -1, 0, 1 but the zero one.
func allDirections(ndims int) [][]int {
	var out [][]int
	for i := 0; i < pow3(ndims); i++ {
		dir := make([]int, ndims)
		for a, k := 0, i; a < ndims; a, k = a+1, k/3 {
			dir[a] = k%3 - 1
		}
		if slices.ContainsFunc(dir, func(v int) bool { return v != 0 }) {
			out = append(out, dir)
		}
	}
	return out
}

func pow3(n int) int {
	p := 1
	for range n {
		p *= 3
	}
	return p
}
