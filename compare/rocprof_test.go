package compare

import (
	"strconv"
	"strings"
	"testing"

	"github.com/akisim/akisim/config"
	"github.com/akisim/akisim/profile"
)

// The rocpd sample's 4 kernels and 3 copies each come back beside the
// replay's time with their ratio, under a header naming the what-if.
func TestRocprofSetsTheReplayBesideTheProfile(t *testing.T) {
	p, err := profile.ReadRocpd("../profile/testdata/rocprofv3-rocpd")
	if err != nil {
		t.Fatal(err)
	}
	c, err := config.Load("../configs/frontier-node.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := Rocprof(&b, "sample", p, c, " -set x=1"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2+7 || !strings.HasSuffix(lines[0], "-set x=1: per kernel (first workgroup to end) and copy, the profile's time and akisim's (us)") {
		t.Fatalf("want the header and the sample's 7 kernels and copies:\n%s", b.String())
	}
	for _, l := range lines[2:] {
		f := strings.Fields(l)
		if r, err := strconv.ParseFloat(f[len(f)-1], 64); err != nil || r <= 0 {
			t.Errorf("no ratio: %q", l)
		}
	}
}
