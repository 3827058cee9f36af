package limit

import (
	"errors"
	"strings"
	"testing"
)

func TestMemory(t *testing.T) {
	t.Setenv("AKISIM_MEMORY_BYTES", "1048576")
	if err := Memory("small", 1<<20); err != nil {
		t.Errorf("1 MiB of 1 MiB: %v", err)
	}
	var e *Error
	for _, need := range []int64{1<<20 + 1, -1, Product(1<<40, 1<<40)} {
		err := Memory("big", need)
		if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), "big needs up to") {
			t.Errorf("need %d: %v", need, err)
		}
	}
	if err := CheckEnv(); err != nil {
		t.Errorf("AKISIM_MEMORY_BYTES=1048576: %v", err)
	}
	for _, v := range []string{"", "abc", "0", "-5", "1e9", "8GB", "99999999999999999999"} {
		t.Setenv("AKISIM_MEMORY_BYTES", v)
		if err := CheckEnv(); err == nil || !strings.Contains(err.Error(), "AKISIM_MEMORY_BYTES="+`"`+v+`"`) {
			t.Errorf("AKISIM_MEMORY_BYTES=%q: %v, want an error naming it", v, err)
		}
	}
	if Product(1<<62, 2) != -1 || Product(3, 4) != 12 || Product(0, 1<<62) != 0 {
		t.Error("Product")
	}
}
