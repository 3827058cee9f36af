package run

import (
	"reflect"
	"testing"

	"github.com/sarchlab/akita/v3/tracing"
)

// A task whose name holds commas and quotes (a C++ kernel's) comes back
// whole through Akita's own CSV reader, beside plain fields, at its exact
// times.
func TestDaisenCSVKeepsEveryName(t *testing.T) {
	in := []tracing.Task{
		{ID: "k[1]", Kind: "kernel", What: `vector_add(float const*, float*, int) "v2"`, Where: "Node.GCD[0].CU", StartTime: 1e-9, EndTime: 2.5e-6},
		{ID: "k[1].cu[0]", ParentID: "k[1]", Kind: "workgroup", What: "64 workgroups", Where: "Node.GCD[0].CU[0]", StartTime: 1e-9, EndTime: 1e-6},
		{ID: "x", Kind: "copy", What: "line\nbreak", Where: "E", StartTime: 3, EndTime: 4},
	}
	got := daisenTasks(t, in)
	for i := range got {
		got[i].Steps = nil
	}
	if !reflect.DeepEqual(got, in) {
		t.Errorf("read back %+v\nwant %+v", got, in)
	}
}
