package halo

import (
	"bufio"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The examples of the MPI standard's MPI_Dims_create section and acm's
// process counts.
func TestDimsCreateDocumented(t *testing.T) {
	for _, c := range []struct {
		n, d int
		want []int
	}{
		{6, 2, []int{3, 2}},
		{7, 2, []int{7, 1}},
		{6, 3, []int{3, 2, 1}},
		{8, 3, []int{2, 2, 2}},
		{64, 3, []int{4, 4, 4}},
		{512, 3, []int{8, 8, 8}},
		{4096, 3, []int{16, 16, 16}},
		{12, 2, []int{4, 3}},
		{100, 3, []int{5, 5, 4}}, // dims_create.c's own example for the round-robin guess
		{1, 3, []int{1, 1, 1}},
		{2, 3, []int{2, 1, 1}},
		{32, 3, []int{4, 4, 2}},
		{1000000000, 3, []int{1000, 1000, 1000}}, // MPICH test/mpi/topo/dims4.c
	} {
		got, err := DimsCreate(c.n, c.d)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("DimsCreate(%d, %d) = %v, %v; want %v", c.n, c.d, got, err, c.want)
		}
	}
}

// MPICH's regression list (halo/testdata/mpich-dims.txt).
func TestDimsCreateMPICHRegressions(t *testing.T) {
	f, err := os.Open("testdata/mpich-dims.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	checkDimsCases(t, bufio.NewScanner(f), func(line string) []int {
		if strings.HasPrefix(line, "#") {
			return nil
		}
		return atois(t, strings.Fields(line))
	})
}

// The whole of MPICH's test/mpi/topo/baddims.h (75,000 cases), when
// MPICH_BADDIMS names a copy of it.
func TestDimsCreateMPICHBadDimsFile(t *testing.T) {
	path := os.Getenv("MPICH_BADDIMS")
	if path == "" {
		t.Skip("MPICH_BADDIMS not set")
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	entry := regexp.MustCompile(`^\s*\{\s*([0-9]+),\s*([0-9]+),\s*\{([0-9, ]+)\}`)
	checkDimsCases(t, bufio.NewScanner(f), func(line string) []int {
		m := entry.FindStringSubmatch(line)
		if m == nil || m[1] == "0" {
			return nil
		}
		return atois(t, append(m[1:3], strings.Split(m[3], ",")...))
	})
}

// checkDimsCases runs every case parse finds (size, ndims, dims...).
func checkDimsCases(t *testing.T, sc *bufio.Scanner, parse func(string) []int) {
	t.Helper()
	cases := 0
	for sc.Scan() {
		c := parse(sc.Text())
		if c == nil {
			continue
		}
		cases++
		got, err := DimsCreate(c[0], c[1])
		if err != nil || !slices.Equal(got, c[2:]) {
			t.Errorf("DimsCreate(%d, %d) = %v, %v; MPICH %v", c[0], c[1], got, err, c[2:])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cases == 0 {
		t.Fatal("no cases read")
	}
	t.Logf("%d cases", cases)
}

func atois(t *testing.T, s []string) []int {
	out := make([]int, len(s))
	for i, v := range s {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			t.Fatalf("bad number %q", v)
		}
		out[i] = n
	}
	return out
}

// The MPI standard's contract for every size: the product is n, the dims do
// not increase, and in 2D the pair is the most balanced one.
func TestDimsCreateContract(t *testing.T) {
	for n := 1; n <= 3000; n++ {
		for d := 1; d <= 4; d++ {
			got, err := DimsCreate(n, d)
			if err != nil {
				t.Fatalf("DimsCreate(%d, %d): %v", n, d, err)
			}
			if product(got) != n || !slices.IsSortedFunc(got, func(a, b int) int { return b - a }) {
				t.Fatalf("DimsCreate(%d, %d) = %v", n, d, got)
			}
			if d == 2 {
				best := 1
				for f := 1; f*f <= n; f++ {
					if n%f == 0 {
						best = f
					}
				}
				if got[1] != best {
					t.Fatalf("DimsCreate(%d, 2) = %v, the most balanced pair is %dx%d", n, got, n/best, best)
				}
			}
		}
	}
}

func TestDimsCreateBadInput(t *testing.T) {
	for _, c := range []struct{ n, d int }{{0, 3}, {-4, 2}, {8, 0}} {
		if _, err := DimsCreate(c.n, c.d); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("DimsCreate(%d, %d): error %v, want one line", c.n, c.d, err)
		}
	}
}
